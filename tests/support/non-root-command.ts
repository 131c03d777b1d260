/**
 * A stand-in for a server running as an unprivileged user (the Dockerfile's `USER node`): run by
 * server/environments/exec/non-root.test.ts as another uid, it runs one command through the real command
 * layer (runCommand, the mechanism detected here) in the folder given, and prints the result as
 * JSON. The server's own paths come from the environment it is started with, as in production.
 */
import { runCommand } from '#server/environments/exec/exec.ts'

const [root, command] = process.argv.slice(2)
const result = await runCommand({ root: root!, limits: { timeoutSeconds: 60 } }, command!)
process.stdout.write(JSON.stringify(result))
process.exit(0)
