import type { ServiceProfile } from './profile-service.js';
import type { LoadGenerator, LoadResult } from './load.js';
import { count, kib, mib, ms, verdict, type ReportTable } from './markdown.js';
import type { Phase } from './snapshot-breakdown.js';

export interface Scenario {
  name: string;
  path: string;
  connections: number;
  p99TargetMs?: number;
  acceptEncoding?: 'gzip' | 'identity';
  /** Overrides the default load generator (to compare the two on one scenario). */
  generator?: LoadGenerator;
  /** Paths the requests take in turn instead of `path` (which is the first of them): every request a new page. */
  paths?: string[];
}

export interface Measured {
  scenario: Scenario;
  bodyBytes: number;
  load: LoadResult;
}

export function loadTable(title: string, measured: Measured[], note: string): ReportTable {
  return {
    title,
    headers: [
      ...[
        'request',
        'load generator',
        'clients',
        'p50',
        'p90',
        'p99',
        'max',
        'req/s',
        'JSON body',
        'on the wire (per response)',
        'errors / non-2xx',
      ],
      ...['server RSS (peak, without file pages)', 'server CPU / req (user + sys)', 'load generator CPU', 'target', 'result'],
    ],
    rows: measured.map(({ scenario, bodyBytes, load }) => [
      scenario.name,
      load.generator,
      String(scenario.connections),
      ms(load.p50),
      ms(load.p90),
      ms(load.p99),
      ms(load.max),
      load.requestsPerSecond.toFixed(0),
      kib(bodyBytes),
      kib(load.wireBytesPerResponse),
      `${load.errors} / ${load.non2xx}`,
      load.serverPeakRss === undefined ? 'n/a' : mib(load.serverPeakRss),
      cpuPerRequest(load),
      `${(load.clientCpuShare * 100).toFixed(0)} % of a core`,
      scenario.p99TargetMs === undefined ? '—' : `p99 < ${scenario.p99TargetMs} ms`,
      scenario.p99TargetMs === undefined ? '—' : verdict(load.p99 < scenario.p99TargetMs && load.errors + load.non2xx === 0),
    ]),
    notes: [
      `${note} Latencies: every response of the measured window at full precision. The default generator ` +
        `(closed-loop, bench/support/closed-loop-client.ts, its own process) warms up on the same keep-alive ` +
        `connections it measures on; wrk and autocannon open new ones, whose set-up lands in the window (wrk then ` +
        `adds synthetic samples for it). A non-2xx fails the target. Server RSS: anonymous and shared memory of ` +
        `the server’s processes (a cluster’s workers included), not the pages of files they map. Server CPU is the ` +
        `server process’s CPU time over the window divided by the requests completed. The load generator shares the machine with the server.`,
    ],
  };
}

function cpuPerRequest({ serverCpuPerRequest: cpu }: LoadResult): string {
  return cpu ? `${ms(cpu.userMs + cpu.systemMs)} (${ms(cpu.userMs)} + ${ms(cpu.systemMs)})` : 'n/a';
}

export interface Unloaded {
  firstByteMs: number;
  lastByteMs: number;
}

export function stepsTable(phases: Phase[], unloaded: Unloaded, bodyBytes: number, loaded: LoadResult, connections: number): ReportTable {
  return {
    title: 'Snapshot history: the steps of one limit=365 request (medians, no load)',
    headers: ['step', 'median'],
    rows: [
      ...phases.map((p) => [`${p.name} (in-process)`, ms(p.medianMs)]),
      ['HTTP to the built service: request sent → response headers', ms(unloaded.firstByteMs)],
      ['HTTP to the built service: request sent → last body byte', ms(unloaded.lastByteMs)],
      ['… of which the body transfer (last byte − headers)', ms(unloaded.lastByteMs - unloaded.firstByteMs)],
      ['response body', `${count(bodyBytes)} bytes`],
    ],
    notes: [
      `Closed loop with ${connections} clients: latency ≈ clients / throughput = ${connections} / ` +
        `${loaded.requestsPerSecond.toFixed(0)} req/s = ${ms((connections / loaded.requestsPerSecond) * 1000)}.`,
    ],
  };
}

export function profileTable({ categories, load }: ServiceProfile): ReportTable {
  const busy = categories.filter((c) => c.category !== 'idle').reduce((sum, c) => sum + c.ms, 0);
  return {
    title: `Snapshot history: the server's main thread per limit=365 request (V8 CPU profile, ${count(load.completed)} requests)`,
    headers: ['where', 'per request', 'share of busy time'],
    rows: [
      ...categories.map((c) => [
        c.category,
        ms(c.ms / load.completed),
        c.category === 'idle' ? '—' : `${((c.ms / busy) * 100).toFixed(1)} %`,
      ]),
      ['busy in total', ms(busy / load.completed), '100 %'],
      ['for comparison: server CPU, user + sys (/proc)', cpuPerRequest(load), '—'],
    ],
    notes: [
      `Under the profiler: p50 ${ms(load.p50)}, p99 ${ms(load.p99)}, ${load.requestsPerSecond.toFixed(0)} req/s. ` +
        'Sampled time is attributed to the nearest recognised frame on the stack, so native work lands with its caller.',
    ],
  };
}
