import { describe, expect, it } from 'vitest'
import { clientKey, createBodyBudget } from './body-budget.ts'

describe('the body budget', () => {
  it('refuses a client past its share and the server past its total, and takes nothing then', () => {
    const budget = createBodyBudget({ perAddress: 10, total: 15 })
    expect(budget.take('10.0.0.1', 8)).toBeNull()
    expect(budget.take('10.0.0.1', 3)).toBe('address')
    expect(budget.take('10.0.0.2', 8)).toBe('server')
    expect(budget.take('10.0.0.2', 7)).toBeNull()
    budget.give('10.0.0.1', 8)
    expect(budget.take('10.0.0.1', 8)).toBeNull()
  })

  it('counts an IPv6 client by its /64 and a mapped IPv4 address as itself', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:0db8:0001:0002:ffff:1:2:3'))
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'))
    expect(clientKey('::1')).toBe('0000:0000:0000:0000::/64')
    expect(clientKey('64:ff9b::1.2.3.4')).toBe('0064:ff9b:0000:0000::/64')
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7')
  })
})
