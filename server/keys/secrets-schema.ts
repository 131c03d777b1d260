/**
 * Stored secrets for environments: write-only values injected into commands by name. A value goes
 * in through {@link SecretInput} and never comes back out; summaries carry the name and dates only.
 */
import { z } from 'zod'
import { MIN_SECRET_LENGTH } from '../lib/redact.ts'

export const SecretScope = z
  .enum(['personal', 'org'], { error: 'must be "personal" or "org"' })
  .describe("personal: yours; org: the organisation's (admins and owners change them)")
export type SecretScope = z.infer<typeof SecretScope>

/**
 * Names the C library reads from a program's environment to find code or data to load: the
 * variables glibc itself drops for privileged programs, and the locale's. A command's secrets are
 * in the environment of the host programs that start its sandbox (setpriv, prlimit, bwrap, run as
 * this server's user, root included), so such a name would steer them: a personal secret LC_ALL
 * beside LOCPATH made setpriv open locale files under a folder the member chose, before the
 * sandbox existed, and GCONV_PATH names shared objects a charset conversion loads.
 */
const READ_BY_THE_C_LIBRARY =
  /^(GCONV_PATH|GETCONF_DIR|GLIBC_TUNABLES|HOSTALIASES|LOCALDOMAIN|LOCPATH|MALLOC_[A-Z0-9_]*|NIS_PATH|NLSPATH|RESOLV_HOST_CONF|RES_OPTIONS|TZDIR|TZ|LANGUAGE|LC_[A-Z_]*)$/

export const SecretName = z
  .string({ error: 'is required' })
  .regex(/^[A-Z_][A-Z0-9_]{0,63}$/, { error: 'must be an environment variable name like GITHUB_TOKEN' })
  .refine(
    (name) =>
      !/^(PATH|HOME|LANG|PWD|SHELL|USER|TMPDIR|LD_.*|.*_PROXY|NO_PROXY|SANDBOX_RUNTIME|NODE_OPTIONS)$/.test(
        name,
      ),
    {
      error: 'is set by the sandbox itself; choose another name',
    },
  )
  .refine((name) => !READ_BY_THE_C_LIBRARY.test(name), {
    error:
      'is read by the C library of the programs that start the sandbox on this server; choose another name',
  })
  .describe('The variable name commands see, e.g. GITHUB_TOKEN')

export const SecretValue = z.strictObject({
  value: z
    .string({ error: 'is required' })
    .min(MIN_SECRET_LENGTH, { error: `must be at least ${MIN_SECRET_LENGTH} characters` })
    .max(8192, { error: 'must be at most 8192 characters' })
    .describe('The value; stored encrypted and never shown again'),
})

export type SecretSummary = { scope: SecretScope; name: string; updatedAt: string }
