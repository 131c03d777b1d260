/** The errors a machine call answers with; each names the machine a person knows it by. */
import { HttpError, notFound } from '../lib/errors.ts'

export const machineNotFound = (id: string) => notFound(`No machine "${id}" is connected to your account`)

export const machineOffline = (label: string, lastSeen: Date) =>
  new HttpError(503, 'machine_offline', `machine ${label} is offline (last seen ${lastSeen.toISOString()})`)

export const machineDisconnected = (label: string, why: string) =>
  new HttpError(503, 'machine_disconnected', `machine ${label} disconnected: ${why}`)

export const machineTimeout = (label: string, ms: number) =>
  new HttpError(504, 'machine_timeout', `machine ${label} did not answer within ${Math.round(ms / 1000)} s`)
