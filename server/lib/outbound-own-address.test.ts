/**
 * The attack: on a host with a public address on an interface, a service bound to 0.0.0.0 behind
 * the firewall (the database, a metrics port) answers a request from the host itself on that
 * address. A member names it (or a name resolving to it) as a webhook, MCP server, web page or git
 * URL, and the server's own outbound fetch reaches it from inside. This machine has only private
 * addresses, so the test gives it a public one.
 */
import type { LookupAddress } from 'node:dns'
import type * as Os from 'node:os'
import { describe, expect, it, vi } from 'vitest'

const OWN_PUBLIC = '93.184.215.14'

vi.mock('node:os', async (importOriginal) => {
  const os = await importOriginal<typeof Os>()
  const networkInterfaces = () => ({
    ...os.networkInterfaces(),
    eth9: [
      {
        address: OWN_PUBLIC,
        netmask: '255.255.255.0',
        family: 'IPv4' as const,
        mac: '02:00:00:00:00:09',
        internal: false,
        cidr: `${OWN_PUBLIC}/24`,
      },
    ],
  })
  return { ...os, default: { ...os, networkInterfaces }, networkInterfaces }
})

const { assertPublicAddress, checkOutbound, OutboundRefused } = await import('./outbound.ts')

/** A resolver that answers `address` for every name. */
const resolvesTo =
  (address: string) => (_host: string, cb: (err: Error | null, list: LookupAddress[]) => void) =>
    cb(null, [{ address, family: address.includes(':') ? 6 : 4 }])

describe("the server's own public address", () => {
  it('is refused as a URL, by a name that resolves to it, and inside an IPv4-mapped address', async () => {
    const options = { allowHosts: 'any' as const }
    await expect(checkOutbound(`http://${OWN_PUBLIC}:5432/`, options)).rejects.toBeInstanceOf(OutboundRefused)
    await expect(
      checkOutbound('https://hooks.attacker.example/', { ...options, lookup: resolvesTo(OWN_PUBLIC) }),
    ).rejects.toThrow("an address that is not public (private, loopback, reserved or this server's own)")
    await expect(checkOutbound(`http://[::ffff:${OWN_PUBLIC}]/`, options)).rejects.toBeInstanceOf(
      OutboundRefused,
    )
    // A git source's address is judged by the same rule.
    expect(() => assertPublicAddress(OWN_PUBLIC)).toThrow(OutboundRefused)
  })

  it('leaves other public addresses alone', async () => {
    const lookup = resolvesTo('93.184.215.15')
    await expect(
      checkOutbound('https://hooks.example.org/', { allowHosts: 'any', lookup }),
    ).resolves.toBeUndefined()
  })
})
