import autocannon from 'autocannon';
import { percentile } from './percentiles.js';
import { ownCpuTimes, processCpuTimes, processRss, sampleRssPeak, type CpuTimes } from './process-stats.js';
import { runClosedLoop } from './closed-loop.js';
import type { LoadRun } from './load-run.js';
import { runWrk, wrkAvailable } from './wrk.js';

/**
 * `closed-loop` (closed-loop-client.ts, the default) warms up and measures on the same keep-alive connections.
 * wrk and autocannon open new connections for the measured run, and a busy Node server admits new connections one
 * per event-loop turn, so their first requests wait while all the others are served; wrk 4 then adds synthetic
 * samples for each such wait (its coordinated-omission correction), which moves its p99 far from what clients see.
 */
export type LoadGenerator = 'closed-loop' | 'wrk' | 'autocannon';

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
  /** Defaults to defaultLoadGenerator(). */
  generator?: LoadGenerator;
  /** A JSON body: each request is a POST with it (GraphQL operations); absent, a GET. */
  body?: string;
  /** Paths of url's origin that the requests take in turn, instead of url's own: only the closed-loop generator. */
  paths?: string[];
  /** Called as the measured window opens, after the warm-up. */
  onMeasuring?: () => void;
}

export interface LoadResult {
  generator: LoadGenerator;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requestsPerSecond: number;
  completed: number;
  /** Bytes received per response, headers included: the gzip form where it was asked for. */
  wireBytesPerResponse: number;
  errors: number;
  non2xx: number;
  serverPeakRss?: number;
  /** Server CPU per completed request. */
  serverCpuPerRequest?: CpuTimes;
  /** Share of one core the load generator used: it shares the machine with the server. */
  clientCpuShare: number;
}

/** closed-loop, unless BENCH_LOAD_GENERATOR asks for wrk (when installed) or autocannon. */
export function defaultLoadGenerator(): LoadGenerator {
  const asked = process.env.BENCH_LOAD_GENERATOR;
  if (asked === 'autocannon' || asked === 'closed-loop') return asked;
  if (asked === 'wrk' && wrkAvailable()) return asked;
  return 'closed-loop';
}

/** Closed-loop load: each connection sends its next request as soon as the previous answer ended. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const generator = options.generator ?? defaultLoadGenerator();
  if (generator === 'closed-loop') return closedLoopLoad(options);
  if (options.paths) throw new Error(`${generator} sends one request over and over: rotating paths need closed-loop`);
  const fire = generator === 'wrk' ? fireWrk : fireAutocannon;
  if (options.warmUpSeconds > 0) await fire(options, options.warmUpSeconds);
  options.onMeasuring?.();
  const serverBefore = processCpuTimes(options.serverPid);
  const rss = sampleRssPeak(() => processRss(options.serverPid));
  const run = await fire(options, options.seconds);
  return result(generator, run, serverBefore, processCpuTimes(options.serverPid), rss.stop() || undefined);
}

/** Warm-up and measurement in one client run: the server's CPU and RSS are taken over the measured window only. */
async function closedLoopLoad(options: LoadOptions): Promise<LoadResult> {
  let serverBefore: CpuTimes | undefined;
  let rss: { stop(): number } | undefined;
  const run = await runClosedLoop({
    url: options.url,
    authorization: `Bearer ${options.apiKey}`,
    acceptEncoding: options.acceptEncoding ?? 'identity',
    connections: options.connections,
    warmUpSeconds: options.warmUpSeconds,
    seconds: options.seconds,
    body: options.body,
    paths: options.paths,
    onMeasuring: () => {
      options.onMeasuring?.();
      serverBefore = processCpuTimes(options.serverPid);
      rss = sampleRssPeak(() => processRss(options.serverPid));
    },
  });
  const serverAfter = processCpuTimes(options.serverPid);
  return result('closed-loop', run, serverBefore, serverAfter, rss?.stop() || undefined);
}

function result(
  generator: LoadGenerator,
  run: LoadRun,
  serverBefore: CpuTimes | undefined,
  serverAfter: CpuTimes | undefined,
  serverPeakRss: number | undefined,
): LoadResult {
  return {
    generator,
    p50: run.p50,
    p90: run.p90,
    p99: run.p99,
    max: run.max,
    requestsPerSecond: run.completed / run.durationSeconds,
    completed: run.completed,
    wireBytesPerResponse: run.bytes / run.completed,
    errors: run.errors,
    non2xx: run.non2xx,
    serverPeakRss,
    serverCpuPerRequest: perRequest(serverBefore, serverAfter, run.completed),
    clientCpuShare: (run.clientCpu.userMs + run.clientCpu.systemMs) / (run.durationSeconds * 1000),
  };
}

function fireWrk(options: LoadOptions, seconds: number): Promise<LoadRun> {
  return runWrk({
    url: options.url,
    authorization: `Bearer ${options.apiKey}`,
    acceptEncoding: options.acceptEncoding ?? 'identity',
    connections: options.connections,
    seconds,
    body: options.body,
  });
}

async function fireAutocannon(options: LoadOptions, seconds: number): Promise<LoadRun> {
  // autocannon's own histogram has 1 ms resolution; the per-response times are kept here at full precision.
  const latencies: number[] = [];
  const clientBefore = ownCpuTimes();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: seconds,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'accept-encoding': options.acceptEncoding ?? 'identity',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.body === undefined ? {} : { method: 'POST' as const, body: options.body }),
      },
      (error: unknown, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, status, _bytes, ms) => status < 300 && latencies.push(ms));
  });
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    completed: result.requests.total,
    durationSeconds: result.duration,
    bytes: result.throughput.total,
    errors: result.errors,
    non2xx: result.non2xx,
    clientCpu: difference(ownCpuTimes(), clientBefore),
  };
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
