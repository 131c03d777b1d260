import { checkHealth } from '#server/http/health.ts'

export const loader = () => checkHealth()
