/** The benchmark's Postgres: fresh databases on the system server, and per-database counters. */
import os from 'node:os'
import postgres from 'postgres'

/** DATABASE_URL, else the machine's Postgres (as .ci/run starts it). */
export const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  return url.toString()
}

const admin = postgres(databaseUrl('postgres'), { max: 2, onnotice: () => {} })

export async function createDatabase(name: string): Promise<string> {
  await admin.unsafe(`drop database if exists ${name} with (force)`)
  await admin.unsafe(`create database ${name}`)
  return databaseUrl(name)
}

export async function dropDatabase(name: string): Promise<void> {
  await admin.unsafe(`drop database if exists ${name} with (force)`)
}

/** Committed + rolled-back transactions in a database so far (≈ statements, for autocommit clients). */
export async function transactionCount(name: string): Promise<number> {
  const [row] =
    await admin`select xact_commit + xact_rollback as n from pg_stat_database where datname = ${name}`
  return Number(row?.n ?? 0)
}

/** Postgres reports statistics lazily; this forces a fresh snapshot for the next read. */
export async function clearStatsSnapshot(): Promise<void> {
  await admin`select pg_stat_clear_snapshot()`
}

export async function describeMachine() {
  const [pg] = await admin`select version() as version, current_setting('synchronous_commit') as sync,
    current_setting('shared_buffers') as buffers, current_setting('max_connections') as conns`
  return {
    cpu: `${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}`,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres: String(pg?.version).split(',')[0],
    postgresSettings: `synchronous_commit=${pg?.sync}, shared_buffers=${pg?.buffers}, max_connections=${pg?.conns}`,
    loadAverage: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  }
}

export async function closeAdmin(): Promise<void> {
  await admin.end({ timeout: 5 })
}
