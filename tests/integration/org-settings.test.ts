/**
 * GET|PATCH /_agent-native/org-settings over real HTTP: members read, owners and admins write,
 * other organisations are untouched, bad input is a 400 naming the field and changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { withTeamApp } from '#tests/support/team-app.ts'

// The environment command controls, at their defaults (tests/integration/environments-org.test.ts sets them).
const EXEC = { exec: true, execRuntimes: ['node', 'python'], execLimits: {}, execDeny: [] }

const S = '/_agent-native/org-settings'
const suite = withTeamApp()

describe('org settings', () => {
  it('starts with every switch on and says who may edit', async () => {
    const { team } = suite
    expect((await team.member.client.get(S)).body).toEqual({
      settings: { runCode: true, cli: true, webFetch: true, monthlyBudgetUsd: null, ...EXEC },
      updatedAt: null,
      updatedBy: null,
      canEdit: false,
    })
    expect((await team.admin.client.get(S)).body.canEdit).toBe(true)
  })

  it('a member cannot change them (403) and nothing changes', async () => {
    const { team } = suite
    const res = await team.member.client.patch(S, { runCode: false })
    expect(res).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } })
    expect((await team.owner.client.get(S)).body.settings.runCode).toBe(true)
  })

  it('an admin switches one setting; the other keeps its value; other orgs are untouched', async () => {
    const { team } = suite
    const res = await team.admin.client.patch(S, { runCode: false })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ settings: { runCode: false, cli: true }, updatedBy: team.admin.id })
    const owner = await team.owner.client.patch(S, { cli: false })
    expect(owner.body.settings).toEqual({
      runCode: false,
      cli: false,
      webFetch: true,
      monthlyBudgetUsd: null,
      ...EXEC,
    })
    expect((await team.member.client.get(S)).body.settings).toEqual({
      runCode: false,
      cli: false,
      webFetch: true,
      monthlyBudgetUsd: null,
      ...EXEC,
    })
    expect((await team.outsider.client.get(S)).body.settings).toEqual({
      runCode: true,
      cli: true,
      webFetch: true,
      monthlyBudgetUsd: null,
      ...EXEC,
    })
    await team.owner.client.patch(S, { runCode: true, cli: true })
  })

  it('bad input is a 400 naming the field and changes nothing', async () => {
    const { team } = suite
    const unknown = await team.owner.client.patch(S, { runCode: false, shell: true })
    expect(unknown).toMatchObject({ status: 400, body: { error: { field: 'shell' } } })
    const wrongType = await team.owner.client.patch(S, { runCode: 'no' })
    expect(wrongType).toMatchObject({ status: 400, body: { error: { field: 'runCode' } } })
    expect((await team.owner.client.get(S)).body.settings).toEqual({
      runCode: true,
      cli: true,
      webFetch: true,
      monthlyBudgetUsd: null,
      ...EXEC,
    })
  })

  it('needs a session and answers 405 to other methods', async () => {
    const { app, team } = suite
    expect((await app.client().get(S)).status).toBe(401)
    expect((await team.owner.client.post(S, { runCode: false })).status).toBe(405)
  })
})
