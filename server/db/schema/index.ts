export * from './auth.ts'
export * from './app.ts'
export * from './environments.ts'
export * from './integrations.ts'
