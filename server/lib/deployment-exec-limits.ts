/**
 * The deployment's ceilings on every environment's limits (decision 0482). Here in lib because the
 * org settings (accounts) refuse more and the environments domain clamps to them at use.
 */
import { env } from '../env.ts'
import type { FieldProblem } from './errors.ts'

/** The limits the deployment bounds for every environment, whatever an organisation sets. */
const DEPLOYMENT_BOUNDED = {
  memoryMb: 'ENVIRONMENT_MAX_MEMORY_MB',
  diskMb: 'ENVIRONMENT_MAX_DISK_MB',
  processes: 'ENVIRONMENT_MAX_PROCESSES',
} as const

/**
 * The deployment's ceilings (decision 0482): with open sign-up an organisation's owner is anyone,
 * so its settings alone cannot bound what an environment takes of the host every tenant shares.
 */
export function deploymentCeilings(): {
  key: keyof typeof DEPLOYMENT_BOUNDED
  variable: string
  max: number
}[] {
  const config = env()
  return (Object.keys(DEPLOYMENT_BOUNDED) as (keyof typeof DEPLOYMENT_BOUNDED)[]).map((key) => ({
    key,
    variable: DEPLOYMENT_BOUNDED[key],
    max: config[DEPLOYMENT_BOUNDED[key]],
  }))
}

/** An organisation's ceilings above the deployment's, one problem each, naming the variable. */
export function limitsAboveDeployment(limits: Partial<Record<string, number>>): FieldProblem[] {
  return deploymentCeilings()
    .filter(({ key, max }) => (limits[key] ?? 0) > max)
    .map(({ key, variable, max }) => ({
      field: `execLimits.${key}`,
      message: `execLimits.${key}: this server allows at most ${max} (${variable}); ask its operator to raise it`,
    }))
}
