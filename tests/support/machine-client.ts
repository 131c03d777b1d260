/**
 * The real machine client in a child process (the file the app serves), and a TCP relay between
 * it and the server that a test can cut and restore to take a machine offline without killing it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ApiClient } from './api-client.ts'

export type MachineClient = {
  child: ChildProcess
  output(): string
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>
  kill(signal?: NodeJS.Signals): Promise<void>
}

/** Downloads the client from the app once per file. */
export async function downloadClient(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/_agent-native/machines/client.mjs`)
  if (!res.ok) throw new Error(`client.mjs: ${res.status} ${await res.text()}`)
  const file = path.join(os.tmpdir(), `clockwork-machine-client-${process.pid}.mjs`)
  writeFileSync(file, await res.text())
  return file
}

export function startClient(file: string, args: string[]): MachineClient {
  const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let text = ''
  child.stdout!.on('data', (b: Buffer) => (text += b.toString()))
  child.stderr!.on('data', (b: Buffer) => (text += b.toString()))
  return {
    child,
    output: () => text,
    waitFor(wanted, timeoutMs = 15_000) {
      // Checked on every chunk of output (the listeners above add it to `text` first); the timer
      // is a hang guard only.
      const hit = () => (typeof wanted === 'string' ? text.includes(wanted) : wanted.test(text))
      return new Promise<void>((resolve, reject) => {
        const end = (error?: Error) => {
          clearTimeout(guard)
          child.stdout!.off('data', check)
          child.stderr!.off('data', check)
          child.off('exit', exited)
          if (error) reject(error)
          else resolve()
        }
        const check = () => hit() && end()
        const exited = () =>
          hit() || end(new Error(`client exited before printing ${String(wanted)}:\n${text}`))
        const guard = setTimeout(
          () => end(new Error(`client never printed ${String(wanted)}; output:\n${text}`)),
          timeoutMs,
        )
        child.stdout!.on('data', check)
        child.stderr!.on('data', check)
        child.on('exit', exited)
        check()
      })
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill(signal)
      await once(child, 'exit')
    },
  }
}

/**
 * A person's machine, connected: a token named `name` (the machine's id), a fresh folder, the real
 * client started against the app and online. `close()` stops it and removes the folder.
 */
export async function connectMachine(person: ApiClient, baseUrl: string, name: string) {
  const made = await person.post('/_agent-native/machines/tokens', { name })
  if (made.status !== 201) throw new Error(`machine token: ${made.status} ${JSON.stringify(made.body)}`)
  const dir = mkdtempSync(path.join(os.tmpdir(), `clockwork-machine-${name}-`))
  const machine = startClient(await downloadClient(baseUrl), [
    ...['--server', baseUrl, '--token', made.body.token],
    ...['--dir', dir, '--id', name],
  ])
  await machine.waitFor('is online')
  return {
    machine,
    dir,
    async close() {
      await machine.kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A relay to `target` on 127.0.0.1: `cut()` drops every connection and refuses new ones until `restore()`. */
export async function startRelay(targetPort: number) {
  const sockets = new Set<net.Socket>()
  let open = true
  const server = net.createServer((inbound) => {
    if (!open) return inbound.destroy()
    const outbound = net.connect(targetPort, '127.0.0.1')
    for (const s of [inbound, outbound]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
    }
    inbound.pipe(outbound).pipe(inbound)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      open = false
      for (const s of sockets) s.destroy()
    },
    restore() {
      open = true
    },
    close() {
      this.cut()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
