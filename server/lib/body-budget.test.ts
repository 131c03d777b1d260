import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { clientKey, createBodyBudget, holdBody } from './body-budget.ts'

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

  it("holds a request's body as it grows and gives it all back when the answer closes", () => {
    const budget = createBodyBudget({ perAddress: 10, total: 100 })
    const answer = new EventEmitter()
    const hold = holdBody(budget, '10.0.0.1', answer)
    expect(hold.growTo(4)).toBeNull()
    expect(hold.growTo(3)).toBeNull()
    expect(hold.growTo(9)).toBeNull()
    // Only the growth is taken: 9 held, so 2 more for this client is one too many.
    expect(budget.take('10.0.0.1', 2)).toBe('address')
    expect(hold.growTo(11)).toBe('address')
    expect(budget.take('10.0.0.1', 1)).toBeNull()
    budget.give('10.0.0.1', 1)
    answer.emit('close')
    expect(budget.take('10.0.0.1', 10)).toBeNull()
  })

  it('gives back a dropped body at once, and nothing twice when its answer closes later', () => {
    const budget = createBodyBudget({ perAddress: 10, total: 10 })
    const answer = new EventEmitter()
    const hold = holdBody(budget, '10.0.0.1', answer)
    expect(hold.growTo(10)).toBeNull()
    hold.release()
    expect(budget.take('10.0.0.2', 10)).toBeNull()
    answer.emit('close')
    expect(budget.take('10.0.0.3', 1)).toBe('server')
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
