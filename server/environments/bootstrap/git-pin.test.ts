/**
 * How git is told where to connect: the checked addresses pinned through curl's resolve list, no
 * redirects, the token only as a header; and the check that refuses names leading inside.
 */
import { describe, expect, it } from 'vitest'
import { checkGitUrl, cloneArgs, curlResolveEntry, gitConfig } from './git.ts'

describe('the pin git connects by', () => {
  it("is curl's host:port:addresses entry, IPv6 in brackets", () => {
    expect(curlResolveEntry({ host: 'github.com', port: 443, addresses: ['140.82.121.4'] })).toBe(
      'github.com:443:140.82.121.4',
    )
    expect(
      curlResolveEntry({
        host: 'git.example.org',
        port: 8443,
        addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      }),
    ).toBe('git.example.org:8443:93.184.216.34,[2606:2800:220:1:248:1893:25c8:1946]')
  })

  it('goes into the configuration with redirects off, next to the hardening and the token header', () => {
    const config = gitConfig({ host: 'github.com', port: 443, addresses: ['140.82.121.4'] }, 'tok-1')
    expect(config).toEqual([
      ['core.hooksPath', '/dev/null'],
      ['protocol.allow', 'never'],
      ['protocol.https.allow', 'always'],
      ['protocol.file.allow', 'always'],
      ['credential.helper', ''],
      ['http.followRedirects', 'false'],
      ['http.curloptResolve', 'github.com:443:140.82.121.4'],
      ['http.extraHeader', `Authorization: Basic ${Buffer.from('x-access-token:tok-1').toString('base64')}`],
    ])
    // file:// sources and address literals have nothing to pin; no token, no header.
    const plain = gitConfig(undefined, undefined)
    expect(plain.map(([key]) => key)).not.toContain('http.curloptResolve')
    expect(plain.map(([key]) => key)).not.toContain('http.extraHeader')
  })

  it('never reaches the command line, which is the clone alone', () => {
    expect(cloneArgs({ url: 'https://github.com/acme/app', dir: 'src', depth: 1, ref: 'main' })).toEqual([
      'git',
      'clone',
      '--quiet',
      '--no-tags',
      '--depth=1',
      '--single-branch',
      '--branch',
      'main',
      '--',
      'https://github.com/acme/app',
      'src',
    ])
    expect(cloneArgs({ url: 'https://github.com/acme/app', dir: 'src', depth: 'full' })).toEqual([
      'git',
      'clone',
      '--quiet',
      '--no-tags',
      '--',
      'https://github.com/acme/app',
      'src',
    ])
  })
})

describe('the host check', () => {
  it('refuses a name that resolves to loopback, and private or loopback address literals', async () => {
    for (const url of [
      'https://localhost/acme/app.git',
      'https://127.0.0.1/acme/app.git',
      'https://10.1.2.3/acme/app.git',
      'https://[::1]/acme/app.git',
      'https://169.254.169.254/latest',
    ]) {
      await expect(checkGitUrl(url, undefined, 'source.url'), url).rejects.toMatchObject({
        status: 403,
        message: expect.stringContaining('is not a public host'),
      })
    }
  })

  it('answers no pin for a public address literal (nothing to resolve), and 400 for a name that does not resolve', async () => {
    expect(await checkGitUrl('https://140.82.121.4/acme/app.git', undefined, 'source.url')).toBeUndefined()
    await expect(
      checkGitUrl('https://no-such-host.invalid/acme/app.git', undefined, 'source.url'),
    ).rejects.toMatchObject({ status: 400, field: 'source.url' })
  })
})
