/**
 * A CPU profile of the server over just the load (not start-up or seeding): the server runs with
 * --inspect on a loopback port and the bench drives V8's profiler over the DevTools protocol.
 */
import WebSocket from 'ws'

export type Profiler = { stop(): Promise<unknown> }

export async function startProfiler(inspectPort: number): Promise<Profiler> {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string
  }[]
  const socket = new WebSocket(target!.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let nextId = 1
  const pending = new Map<number, (result: unknown) => void>()
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown }
    if (message.id) pending.get(message.id)?.(message.result)
  })
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      socket.send(JSON.stringify({ id, method, params }))
    })
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: 1000 })
  await send('Profiler.start')
  return {
    stop: async () => {
      const { profile } = (await send('Profiler.stop')) as { profile: unknown }
      socket.close()
      return profile
    },
  }
}
