import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { watchDiskUse, type DiskStop } from './disk-watch.ts'
import { diskBlocks } from './quota.ts'

const MiB = 1024 * 1024
let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'disk-watch-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

it('lets a command that began over the quota run while it frees space, and stops it once it grows', async () => {
  // Over its 1 MiB quota, only a cleanup command starts (exec.ts assertRoomFor). One slower than
  // the watch's first look (an rm -rf of many files, a container slow to start) was stopped there,
  // before it had freed anything.
  await writeFile(join(folder, 'full.bin'), Buffer.alloc(2 * MiB, 1))
  const startedWith = (await diskBlocks(folder))!
  expect(startedWith).toBeGreaterThan(MiB)
  const looked: number[] = []
  let stops = 0
  const watch = watchDiskUse(folder, MiB, () => stops++, {
    startedWith,
    // Told the folder's size at the first look and after each mebibyte it moves: how the test sees it look.
    orgDisk: async (used) => {
      looked.push(used)
      return { roomBytes: 100 * MiB, note: '' }
    },
  })
  try {
    await vi.waitFor(() => expect(looked.length).toBe(1), { timeout: 10_000, interval: 20 })
    await writeFile(join(folder, 'grown.bin'), Buffer.alloc(2 * MiB, 1))
    await vi.waitFor(() => expect(stops).toBe(1), { timeout: 10_000, interval: 20 })
    const stop = watch.stopped() as DiskStop
    expect(stop.usedBytes).toBeGreaterThanOrEqual(startedWith + 2 * MiB)
    expect(stop.limitBytes).toBe(MiB)
  } finally {
    watch.end()
  }
})

it('tells the organisation a small folder’s growth in steps of a sixteenth of its limit', async () => {
  // Each running command's recorded size lags by up to a step, and the others' room is read from
  // those records. A mebibyte's step let four 4 MiB folders pass a 10 MiB total by 3 MiB
  // (decision 0528); a 4 MiB folder is now told again after a quarter of a mebibyte.
  const small = await mkdtemp(join(folder, 'small-'))
  const told: number[] = []
  const watch = watchDiskUse(small, 4 * MiB, () => {}, {
    orgDisk: async (used) => {
      told.push(used)
      return { roomBytes: 100 * MiB, note: '' }
    },
  })
  try {
    await vi.waitFor(() => expect(told.length).toBe(1), { timeout: 10_000, interval: 20 })
    await writeFile(join(small, 'part.bin'), Buffer.alloc(300 * 1024, 1))
    await vi.waitFor(() => expect(told.length).toBe(2), { timeout: 10_000, interval: 20 })
    expect(told[1]! - told[0]!).toBeGreaterThanOrEqual(256 * 1024)
  } finally {
    watch.end()
  }
})
