/**
 * Wraps agent-written JavaScript into the module an adapter runs. The code stays an ES module
 * (its own `import`s and top-level `await` work) and gains exactly two globals that talk to the
 * parent's bridge: `appAction(name, input)` and `providerFetch(url, init)`.
 *
 * The prelude is one line, so an error in the agent's code reports its line number plus one.
 * It uses only dynamic imports and names under `__bridge`, so it cannot clash with the code's
 * own `import` declarations (which are hoisted wherever they appear).
 */
import { BRIDGE_SOCKET_ENV, BRIDGE_URL_ENV } from './adapter.ts'

export type BridgeAddress = { token: string; socketPath?: string; port?: number }

function prelude(bridge: BridgeAddress): string {
  const config = JSON.stringify({
    token: bridge.token,
    socketPath: bridge.socketPath ?? null,
    url: bridge.port ? `http://127.0.0.1:${bridge.port}` : null,
  })
  // Kept on one line on purpose (see above). Runs inside the sandbox: plain JS, no TypeScript.
  const body = `
const __bridge = ${config};
const __bridgeCall = async (route, payload) => {
  const http = await import('node:http');
  const socketPath = process.env.${BRIDGE_SOCKET_ENV} || __bridge.socketPath;
  const base = new URL(process.env.${BRIDGE_URL_ENV} || __bridge.url || 'http://bridge');
  const data = Buffer.from(JSON.stringify(payload));
  const target = socketPath ? { socketPath } : { host: base.hostname, port: base.port };
  return await new Promise((resolve, reject) => {
    const req = http.request({ ...target, path: route, method: 'POST', headers: {
      authorization: 'Bearer ' + __bridge.token, 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let parsed = null;
        try { parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { parsed = null; }
        if (res.statusCode >= 200 && res.statusCode < 300) return resolve(parsed);
        const err = new Error((parsed && parsed.error && parsed.error.message) || 'bridge answered ' + res.statusCode);
        err.status = res.statusCode; err.code = parsed && parsed.error && parsed.error.code;
        reject(err);
      });
    });
    req.on('error', reject);
    req.end(data);
  });
};
globalThis.appAction = async (name, input) => (await __bridgeCall('/app-action', { name, input: input ?? {} })).result;
globalThis.providerFetch = async (url, init = {}) => {
  const body = init.body == null ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const r = await __bridgeCall('/provider-fetch', { url: String(url), method: init.method, headers: init.headers, body });
  return new Response(r.status === 204 || r.status === 304 ? null : Buffer.from(r.body, 'base64'),
    { status: r.status, statusText: r.statusText, headers: r.headers });
};`
  return body.replace(/\n\s*/g, ' ').trim()
}

/** The module source for one run: the prelude on line 1, the agent's code from line 2. */
export function wrapModule(code: string, bridge: BridgeAddress): string {
  return `${prelude(bridge)}\n${code}\n`
}
