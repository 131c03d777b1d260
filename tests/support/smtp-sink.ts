/**
 * A real SMTP server (the `smtp-server` package) on a local port that keeps every message it is
 * sent, for tests of Clockwork's mail. Point SMTP_URL at `url`. No TLS, no auth: loopback only.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; raw: string }

export type SmtpSink = {
  url: string
  mails: ReceivedMail[]
  /** Resolves with the first mail (already received or still to come) that `match` accepts. */
  waitFor(match: (mail: ReceivedMail) => boolean, what?: string): Promise<ReceivedMail>
  close(): Promise<void>
}

/** The body of a simple text/plain message, undoing quoted-printable soft breaks and escapes. */
function decodeBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split)
  const body = raw.slice(split + 4)
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
    return body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body, 'base64').toString('utf8')
  return body
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = []
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // No reverse DNS of the client: it costs about half a second per connection here.
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const subject = /^subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? ''
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          text: decodeBody(raw),
          raw,
        }
        mails.push(mail)
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1)
            w.resolve(mail)
          }
        }
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(match, what = 'a mail') {
      const found = mails.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${what} arrived`)), 10_000)
        waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) })
      })
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
