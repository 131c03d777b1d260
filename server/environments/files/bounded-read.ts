/**
 * Reading a file a command may still be writing. Its size at open says nothing about what a read
 * will find: a command appending fast (or a file swapped in place) can hold far more by the time
 * it is read, so a whole-file read (`handle.readFile()`) could load anything up to the per-file
 * disk limit into the server's memory. This reads at most one byte past the limit, then stops.
 */
import type { FileHandle } from 'node:fs/promises'

/** Each read asks for at most this much: a small file costs a small buffer. */
const CHUNK_BYTES = 64 * 1024

/**
 * The file's bytes from the start, or undefined when it holds more than `limit` (known after
 * reading `limit + 1` bytes, never more).
 */
export async function readAtMost(
  handle: Pick<FileHandle, 'read'>,
  limit: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let total = 0
  while (total <= limit) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit + 1 - total))
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total)
    if (bytesRead === 0) break
    chunks.push(chunk.subarray(0, bytesRead))
    total += bytesRead
  }
  return total > limit ? undefined : Buffer.concat(chunks, total)
}
