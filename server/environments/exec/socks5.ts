/**
 * The server side of a SOCKS5 handshake (RFC 1928, user/password from RFC 1929) as far as the
 * proxy gate needs it: which host and port a client asks to CONNECT to, and the replies. A name
 * and password are taken if offered and not looked at: which command asks is the socket it came in
 * on (proxy-gate.ts). Every field is at most 255 bytes, so nothing here waits on more than that.
 */
import type { Socket } from 'node:net'

export const SOCKS5 = 0x05
const NO_AUTH = 0x00
const USER_PASS = 0x02
const CONNECT = 0x01
const REPLIES = { granted: 0x00, refused: 0x02, unreachable: 0x04, unsupported: 0x07 } as const

/** A reply to the CONNECT request (bound address left 0.0.0.0:0, as clients ignore it). */
export const socksReply = (kind: keyof typeof REPLIES) =>
  Buffer.from([SOCKS5, REPLIES[kind], 0, 0x01, 0, 0, 0, 0, 0, 0])

/**
 * Reads the greeting, the credentials if any and the request from `client`, answering each step
 * but the last. @returns the target of a CONNECT. @throws on anything else (answered, when SOCKS
 * has a word for it) or a client that leaves half way.
 */
export async function socksRequest(client: Socket): Promise<{ host: string; port: number }> {
  const read = reader(client)
  const [version, count] = await read(2)
  if (version !== SOCKS5) throw new Error('not SOCKS5')
  const methods = await read(count!)
  if (methods.includes(USER_PASS)) {
    client.write(Buffer.from([SOCKS5, USER_PASS]))
    const [, nameLength] = await read(2)
    await read(nameLength!)
    const [passwordLength] = await read(1)
    await read(passwordLength!)
    client.write(Buffer.from([0x01, 0x00]))
  } else if (methods.includes(NO_AUTH)) {
    client.write(Buffer.from([SOCKS5, NO_AUTH]))
  } else {
    client.end(Buffer.from([SOCKS5, 0xff]))
    throw new Error('no acceptable method')
  }
  const [, command, , kind] = await read(4)
  const host = await readAddress(read, kind!)
  const port = (await read(2)).readUInt16BE()
  if (command !== CONNECT) {
    client.end(socksReply('unsupported'))
    throw new Error('not a CONNECT')
  }
  return { host, port }
}

async function readAddress(read: (n: number) => Promise<Buffer>, kind: number): Promise<string> {
  if (kind === 0x01) return [...(await read(4))].join('.')
  if (kind === 0x03) return (await read((await read(1))[0]!)).toString('latin1')
  if (kind === 0x04) {
    const bytes = await read(16)
    return `[${Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(':')}]`
  }
  throw new Error('unknown address type')
}

/** `read(n)`: the next `n` bytes of `socket`, waiting for them; rejects if it ends first. */
function reader(socket: Socket) {
  return (n: number) =>
    new Promise<Buffer>((resolve, reject) => {
      if (n === 0) return resolve(Buffer.alloc(0))
      const attempt = () => {
        const chunk = socket.read(n) as Buffer | null
        if (!chunk) return
        done()
        if (chunk.length === n) resolve(chunk)
        else reject(new Error('ended early'))
      }
      const fail = () => {
        done()
        reject(new Error('ended early'))
      }
      const done = () => {
        socket.off('readable', attempt)
        socket.off('end', fail)
        socket.off('close', fail)
      }
      socket.on('readable', attempt)
      socket.on('end', fail)
      socket.on('close', fail)
      attempt()
    })
}
