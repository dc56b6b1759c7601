import type { CpuTimes } from './process-stats.js';

/** What a load generator is asked to send: one request, over and over, on `connections` keep-alive connections. */
export interface LoadRequest {
  url: string;
  authorization: string;
  acceptEncoding: string;
  connections: number;
  /** Measured seconds. */
  seconds: number;
  /** A JSON body: sent as a POST (GraphQL operations); absent, a GET. */
  body?: string;
  /** Paths of url's origin that the requests take in turn, instead of url's own (closed-loop only). */
  paths?: string[];
}

/** What one measured run yields, whichever generator made it. Latencies in milliseconds. */
export interface LoadRun {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  completed: number;
  durationSeconds: number;
  /** Received, headers included. */
  bytes: number;
  errors: number;
  /** Responses outside 2xx/3xx. */
  non2xx: number;
  /** The generator's own CPU time over the measured window. */
  clientCpu: CpuTimes;
}
