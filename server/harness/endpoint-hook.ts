/**
 * The run's `<token>/hook`: the harness's pre-tool hook asks it whether a tool call may run (the
 * environment's policy and audit decide, policy-hook.ts), and its policy plugin announces itself
 * there before the run's model calls are let through.
 */
import { readBody, parseJson } from './endpoint-request.ts'
import { createHookPace, HOOK_BURST, HOOK_PER_SECOND } from './hook-pace.ts'

/** A tool call the harness wants to make, as its hook reports it. */
export type ToolCall = { tool: string; input: Record<string, unknown> }
export type ToolVerdict = { allow: true } | { allow: false; reason: string }

/** One run's hook. */
export type PolicyHook = {
  /** The policy plugin said it is loaded. */
  checkedIn: () => boolean
  /** Answers one request to the hook. */
  answer: (request: Request) => Promise<Response>
  /** Denies the tool call of one request with `reason`, audited as every other refusal (decision 0476). */
  refuse: (request: Request, reason: string) => Promise<Response>
  /**
   * Whether `message` is what the harness's WebSearch sends the provider for a query this hook
   * allowed (and so audited), taking it: the model call that runs the search passes once without
   * a second entry, and a copy of it sent again is judged like any other.
   */
  takeSearch: (message: string) => boolean
}

/**
 * Claude Code's WebSearch runs its query as a model call of its own, whose one message is this
 * prefix and the query. A wording it changes costs a second audit entry per search, never a search.
 */
const SEARCH_MESSAGE_PREFIX = 'Perform a web search for the query: '
/** The allowed searches a run remembers (the latest ones; a search runs right after its hook). */
const REMEMBERED_SEARCHES = 64

/** Judges a tool call; with a `refusal`, only records that it was refused so. */
export type Decide = (call: ToolCall, refusal?: string) => Promise<ToolVerdict>

const PACED =
  `Paced: this run asked for more than ${HOOK_PER_SECOND} tool calls a second after a burst of ` +
  `${HOOK_BURST}. Wait a moment and try again.`

/** A request's hook event and the tool call it reports, or the answer to a request not read. */
async function readCall(request: Request): Promise<Response | { event: unknown; call: ToolCall }> {
  const text = await readBody(request)
  if (typeof text !== 'string') return text
  const parsed = parseJson(text, 'The hook payload')
  if (parsed instanceof Response) return parsed
  const payload = (parsed ?? {}) as {
    hook_event_name?: unknown
    tool_name?: unknown
    tool_input?: unknown
  }
  const input =
    payload.tool_input && typeof payload.tool_input === 'object'
      ? (payload.tool_input as Record<string, unknown>)
      : {}
  return { event: payload.hook_event_name, call: { tool: String(payload.tool_name ?? ''), input } }
}

/** The hook of a run whose tool calls `decide` judges, as often as hook-pace.ts lets it. */
export function createPolicyHook(decide: Decide): PolicyHook {
  const pace = createHookPace()
  let checkedIn = false
  const searches = new Set<string>()
  const remember = (call: ToolCall) => {
    if (call.tool !== 'WebSearch' || typeof call.input.query !== 'string') return
    searches.add(SEARCH_MESSAGE_PREFIX + call.input.query)
    if (searches.size > REMEMBERED_SEARCHES) searches.delete(searches.values().next().value!)
  }
  return {
    checkedIn: () => checkedIn,
    takeSearch: (message) => searches.delete(message),
    async answer(request) {
      const read = await readCall(request)
      if (read instanceof Response) return read
      if (read.event === 'PolicyLoaded') {
        checkedIn = true
        return Response.json({ ok: true })
      }
      // Past its pace a call is denied unjudged and unaudited: nothing ran. A deny with the reason, not
      // an error status: the CLI (which blocks on a failing hook too) then tells the model why.
      const verdict = pace.take() ? await decide(read.call) : { allow: false as const, reason: PACED }
      if (verdict.allow) remember(read.call)
      return hookAnswer(verdict)
    },
    async refuse(request, reason) {
      const read = await readCall(request)
      if (!(read instanceof Response) && read.event !== 'PolicyLoaded') await decide(read.call, reason)
      return hookAnswer({ allow: false, reason })
    },
  }
}

/** The hook's answer to the CLI: allow, or deny with the reason it tells the model. */
export function hookAnswer(verdict: ToolVerdict): Response {
  return Response.json({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: verdict.allow ? 'allow' : 'deny',
      ...(verdict.allow ? {} : { permissionDecisionReason: verdict.reason }),
    },
  })
}
