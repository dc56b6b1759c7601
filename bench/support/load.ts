import autocannon from 'autocannon';
import { percentile } from './percentiles.js';
import { ownCpuTimes, processCpuTimes, processRss, sampleRssPeak, type CpuTimes } from './process-stats.js';

export interface LoadOptions {
  url: string;
  apiKey: string;
  connections: number;
  warmUpSeconds: number;
  seconds: number;
  /** The server process, for its RSS and CPU time. */
  serverPid: number;
  /** Sent as Accept-Encoding; browsers and HTTP clients send gzip. */
  acceptEncoding?: 'gzip' | 'identity';
}

export interface LoadResult {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requestsPerSecond: number;
  completed: number;
  errors: number;
  non2xx: number;
  serverPeakRss?: number;
  /** Server CPU per completed request. */
  serverCpuPerRequest?: CpuTimes;
  /** Share of one core the load generator (this process) used: it shares the machine with the server. */
  clientCpuShare: number;
}

/** Closed-loop load: each connection sends its next request as soon as the previous answer ended. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmUpSeconds > 0) await fire(options, options.warmUpSeconds);
  // autocannon's own histogram has 1 ms resolution; the per-response times are kept here at full precision.
  const latencies: number[] = [];
  const serverBefore = processCpuTimes(options.serverPid);
  const clientBefore = ownCpuTimes();
  const rss = sampleRssPeak(() => processRss(options.serverPid));
  const result = await fire(options, options.seconds, (ms) => latencies.push(ms));
  const serverPeakRss = rss.stop() || undefined;
  const completed = result.requests.total;
  const clientCpu = difference(ownCpuTimes(), clientBefore);
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    requestsPerSecond: completed / result.duration,
    completed,
    errors: result.errors,
    non2xx: result.non2xx,
    serverPeakRss,
    serverCpuPerRequest: perRequest(serverBefore, processCpuTimes(options.serverPid), completed),
    clientCpuShare: (clientCpu.userMs + clientCpu.systemMs) / (result.duration * 1000),
  };
}

function fire(options: LoadOptions, seconds: number, onLatency?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: seconds,
        headers: { authorization: `Bearer ${options.apiKey}`, 'accept-encoding': options.acceptEncoding ?? 'identity' },
      },
      (error: unknown, result) => (error ? reject(error) : resolve(result)),
    );
    if (onLatency) instance.on('response', (_client, status, _bytes, ms) => status < 300 && onLatency(ms));
  });
}

const difference = (after: CpuTimes, before: CpuTimes): CpuTimes => ({
  userMs: after.userMs - before.userMs,
  systemMs: after.systemMs - before.systemMs,
});

function perRequest(before: CpuTimes | undefined, after: CpuTimes | undefined, completed: number): CpuTimes | undefined {
  if (!before || !after || completed === 0) return undefined;
  const used = difference(after, before);
  return { userMs: used.userMs / completed, systemMs: used.systemMs / completed };
}
