/**
 * Secret names a `provider: docker` environment may not use. A command's secrets reach its
 * container by name only (`--env NAME`): the docker CLI copies each value from its own
 * environment, so the values sit in the environment of the CLI, a program of this server's that
 * talks to the Docker engine as the server does. A name the CLI itself reads there steers it: a
 * personal secret named DOCKER_HOST made the server's CLI connect to whatever address the member
 * gave (this host's loopback, a private range, the cloud's metadata service) and send it the
 * container's variables; DOCKER_CONFIG or DOCKER_CONTEXT point it at configuration in a folder the
 * member writes (decision 0419). The names below are the ones the CLI (a Go program) reads.
 */
import { badFields, badRequest } from '../../lib/errors.ts'

const READ_BY_THE_CLI =
  /^(DOCKER_[A-Z0-9_]*|BUILDKIT_[A-Z0-9_]*|OTEL_[A-Z0-9_]*|GODEBUG|GOGC|GOMAXPROCS|GOMEMLIMIT|GOTRACEBACK|SSL_CERT_FILE|SSL_CERT_DIR)$/

/** True when the docker CLI on this server reads `name` from its own environment. */
export const readByDockerCli = (name: string): boolean => READ_BY_THE_CLI.test(name)

/** Why such a name is refused, in the words a definition's author sees. */
export const dockerCliNameProblem = (name: string) =>
  `${name} is read by the docker CLI on this server itself (it would steer the server's own ` +
  'connection to the Docker engine), so a docker environment cannot pass it to its commands; ' +
  'store the value under another name'

/**
 * Refuses a docker environment's secret names the CLI reads, each named by its place in the
 * definition (`secrets.<i>`). @throws HttpError 400.
 */
export function assertDockerSecretNames(names: readonly string[]): void {
  const problems = names.flatMap((name, i) =>
    readByDockerCli(name)
      ? [{ field: `secrets.${i}`, message: `secrets.${i}: ${dockerCliNameProblem(name)}` }]
      : [],
  )
  if (problems.length > 0) throw badFields(problems)
}

/**
 * The last check before the CLI starts, for what reaches it without a definition's indices (a
 * definition stored before the rule). @throws HttpError 400 on `secrets`.
 */
export function assertNoDockerCliSecrets(secrets: Record<string, string>): void {
  const bad = Object.keys(secrets).filter(readByDockerCli)
  if (bad.length > 0) throw badRequest(`secrets: ${bad.map(dockerCliNameProblem).join('; ')}`, 'secrets')
}
