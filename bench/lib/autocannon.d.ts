// The part of autocannon's API the web benchmark uses (the package ships no types).
declare module 'autocannon' {
  type Histogram = { p50: number; p99: number; max: number; average: number }
  export type Result = {
    duration: number
    requests: Histogram & { total: number }
    latency: Histogram
    throughput: Histogram & { total: number }
    non2xx: number
    /** Answers by status code, e.g. `{ '200': { count: 812 } }`. */
    statusCodeStats: Record<string, { count: number }>
    errors: number
    timeouts: number
  }
  export default function autocannon(options: {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
  }): Promise<Result>
}
