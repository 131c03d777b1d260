import { describe, expect, it } from 'vitest'
import { workspaceNameFor } from './service.ts'

describe('workspaceNameFor', () => {
  it.each([
    ['Ana Lima', "Ana's workspace"],
    ['  Jonas ', "Jonas' workspace"],
    ['', 'My workspace'],
  ])('%j → %s', (name, expected) => expect(workspaceNameFor(name)).toBe(expected))
})
