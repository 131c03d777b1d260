/**
 * The two ends of a stream of bytes kept in bounded memory, as chunks: the first bytes up to a
 * limit, and the latest bytes, at least a given number of them. A command's output arrives as one
 * chunk a write, so a loop printing short lines gives millions of tiny chunks. Joining the kept
 * bytes again on every chunk, or shifting the oldest chunk off a long array one at a time, copies
 * all the rest each time: quadratic work on whichever event loop collects the output.
 */

/** Chunks kept between joins: a join copies what is kept once per this many pushes. */
const JOIN_EVERY = 1024

/** The first `limit` bytes of a stream. */
export class FirstBytes {
  private chunks: Buffer[] = []
  length = 0

  constructor(private readonly limit: number) {}

  /** Keeps what fits of `chunk`; answers the rest of it. */
  push(chunk: Buffer): Buffer {
    const part = chunk.subarray(0, Math.max(0, this.limit - this.length))
    if (part.length > 0) {
      this.chunks.push(part)
      this.length += part.length
      if (this.chunks.length >= JOIN_EVERY) this.chunks = [Buffer.concat(this.chunks)]
    }
    return chunk.subarray(part.length)
  }

  buffer(): Buffer {
    return Buffer.concat(this.chunks)
  }
}

/**
 * The latest bytes of a stream: whole chunks, dropped from the oldest while the rest still hold
 * `keep` bytes, so at least `keep` bytes are kept once that many came.
 */
export class LatestBytes {
  private chunks: Buffer[] = []
  // Dropped chunks are cut off the array in a batch, once they are the larger part of it.
  private start = 0
  length = 0

  constructor(private readonly keep: number) {}

  push(chunk: Buffer) {
    this.chunks.push(chunk)
    this.length += chunk.length
    while (this.start < this.chunks.length - 1 && this.length - this.chunks[this.start]!.length >= this.keep)
      this.length -= this.chunks[this.start++]!.length
    if (this.start >= JOIN_EVERY && this.start * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.start)
      this.start = 0
    }
  }

  buffer(): Buffer {
    return Buffer.concat(this.start > 0 ? this.chunks.slice(this.start) : this.chunks)
  }
}
