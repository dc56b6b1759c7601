import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_SANDBOX_TOKEN } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startServer, type RunningServer } from '../src/server.js';
import { count, ms, seconds, type ReportTable } from './support/markdown.js';
import { percentile } from './support/percentiles.js';
import { benchConfig } from './support/bench-config.js';
import { progress } from './support/progress.js';
import { withTempDir } from './support/temp-dir.js';

const WEBHOOKS = 1_000;
const RECEIVER_DELAY_MS = 50;
/** Record updates in one upstream write: each fans out to every webhook. */
const BURST_CHANGES = 10;
/** Single changes one after another (each drained before the next): latency without a backlog. */
const SINGLE_CHANGES = 5;
const CONCURRENCIES = [50, 200];

/**
 * 1,000 forwarding webhooks (record_update on one table, one account) and a local receiver answering every POST
 * after 50 ms. An upstream change is a record update made through the sandbox's API, so each measured time covers
 * the whole path: upstream payload → notification ping → ingestion job → delivery rows → dispatcher → signed POST.
 * Latency is the receiver's clock minus the event's `timestamp` (the upstream change time).
 */
export async function runWebhookDeliveryBench(): Promise<ReportTable[]> {
  const rows: string[][] = [];
  for (const concurrency of CONCURRENCIES) {
    await withTempDir('basewatch-bench-webhooks-', async (dir) => {
      const receiver = await startReceiver();
      const config = benchConfig(join(dir, 'bench.sqlite'), {
        SCHEDULER_RUN_JOBS: 'true',
        JOBS_PROCESS_EVERY_MS: '50',
        UPSTREAM_REQUESTS_PER_SECOND: '50',
        API_RATE_LIMIT_PER_MINUTE: '1000000',
        WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
        WEBHOOK_DELIVERY_CONCURRENCY: String(concurrency),
      });
      const running = await startServer(config, createLogger(config.logLevel));
      try {
        running.sandbox!.faults.update({ rateLimitPerSecond: 10_000 });
        const target = await prepare(running, receiver.port);

        progress(`webhooks (concurrency ${concurrency}): ${SINGLE_CHANGES} single changes`);
        const single: number[] = [];
        for (let i = 0; i < SINGLE_CHANGES; i++) {
          receiver.reset();
          await target.update(1, `single ${i}`);
          await receiver.until(WEBHOOKS);
          single.push(...receiver.latencies);
        }

        progress(`webhooks (concurrency ${concurrency}): a burst of ${BURST_CHANGES} changes`);
        receiver.reset();
        const started = Date.now();
        await target.update(BURST_CHANGES, 'burst');
        const expected = BURST_CHANGES * WEBHOOKS;
        await receiver.until(expected);
        const wall = Date.now() - started;
        const burst = receiver.latencies;
        const failed = await settled(running);

        const sortedSingle = [...single].sort((a, b) => a - b);
        const sortedBurst = [...burst].sort((a, b) => a - b);
        rows.push([
          String(concurrency),
          count(expected),
          seconds(wall),
          count(Math.round((expected / wall) * 1000)),
          ms(percentile(sortedSingle, 50)),
          ms(percentile(sortedSingle, 99)),
          ms(percentile(sortedBurst, 50)),
          ms(percentile(sortedBurst, 99)),
          String(failed),
        ]);
      } finally {
        await running.close();
        await receiver.close();
      }
    });
  }
  return [
    {
      title: `Webhook deliveries: ${count(WEBHOOKS)} webhooks, receiver answering in ${RECEIVER_DELAY_MS} ms (SQLite)`,
      headers: [
        'WEBHOOK_DELIVERY_CONCURRENCY',
        'burst deliveries',
        'burst wall',
        'deliveries/s',
        'single change p50',
        'single change p99',
        'burst p50',
        'burst p99',
        'not succeeded',
      ],
      rows,
      notes: [
        `Times are from the upstream change (the event's \`timestamp\`) to its arrival at the receiver. "Single change": ${SINGLE_CHANGES} record updates one after another, each fanning out to every webhook (${count(WEBHOOKS)} deliveries) and drained before the next. "Burst": one upstream write of ${BURST_CHANGES} record updates, ${count(BURST_CHANGES * WEBHOOKS)} deliveries; deliveries/s over its wall time. The ceiling is concurrency ÷ 50 ms (1,000/s at 50, 4,000/s at 200).`,
        'Jobs poll every 50 ms here (JOBS_PROCESS_EVERY_MS, default 5,000 ms): the ingestion job waits for a poll after each upstream ping, the deliveries themselves are woken in-process when the ingestion commits. The receiver runs in the benchmark process.',
      ],
    },
  ];
}

/** Waits until no delivery is pending (the last attempts are being stored), then counts those that did not succeed. */
async function settled(running: RunningServer): Promise<number> {
  const countOf = async (where: string) =>
    Number((await running.dataSource.query(`SELECT COUNT(*) AS n FROM webhook_delivery WHERE ${where}`))[0].n);
  const deadline = Date.now() + 60_000;
  while ((await countOf(`status = 'pending'`)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return countOf(`status <> 'succeeded'`);
}

/** 1,000 webhooks on the first table of the Marketing Assets demo base, and a way to update its records upstream. */
async function prepare(running: RunningServer, receiverPort: number) {
  const { apiKey } = await running.services.accounts.create('bench');
  const bases = running.sandbox!.store.listBases();
  const base = bases.find((b) => b.name === 'Marketing Assets')!;
  const sandbox = `${running.url}/sandbox/airtable/v0`;
  const auth = { authorization: `Bearer ${DEFAULT_SANDBOX_TOKEN}`, 'content-type': 'application/json' };
  const schema = (await (await fetch(`${sandbox}/meta/bases/${base.id}/tables`, { headers: auth })).json()) as {
    tables: Array<{ id: string; primaryFieldId: string; fields: Array<{ id: string; name: string }> }>;
  };
  const table = schema.tables[0]!;
  const primary = table.fields.find((f) => f.id === table.primaryFieldId)!;

  progress(`webhooks: creating ${count(WEBHOOKS)} webhooks`);
  const create = () =>
    fetch(`${running.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        baseId: base.id,
        event: 'record_update',
        tableId: table.id,
        webhookUrl: `http://127.0.0.1:${receiverPort}/hook`,
      }),
    }).then((res) => {
      if (res.status !== 201) throw new Error(`webhook create failed: ${res.status}`);
    });
  const started = Date.now();
  for (let i = 0; i < WEBHOOKS; i += 20) await Promise.all(Array.from({ length: Math.min(20, WEBHOOKS - i) }, create));
  progress(`webhooks: created in ${seconds(Date.now() - started)}`);

  const listed = (await (await fetch(`${sandbox}/${base.id}/${table.id}?pageSize=${BURST_CHANGES}`, { headers: auth })).json()) as {
    records: Array<{ id: string }>;
  };
  return {
    /** One upstream write updating `n` records. */
    async update(n: number, value: string): Promise<void> {
      const records = listed.records.slice(0, n).map((r, i) => ({ id: r.id, fields: { [primary.name]: `${value} ${i}` } }));
      const res = await fetch(`${sandbox}/${base.id}/${table.id}`, { method: 'PATCH', headers: auth, body: JSON.stringify({ records }) });
      if (!res.ok) throw new Error(`sandbox update failed: ${res.status}`);
    },
  };
}

async function startReceiver() {
  let latencies: number[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = Date.now();
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      latencies.push(arrived - Date.parse(timestamp));
      if (waiter && latencies.length >= waiter.count) waiter.resolve();
      setTimeout(() => res.writeHead(200).end(), RECEIVER_DELAY_MS);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get latencies() {
      return latencies;
    },
    reset() {
      latencies = [];
    },
    until(n: number): Promise<void> {
      if (latencies.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${latencies.length} of ${n} deliveries arrived`)), 300_000);
        waiter = {
          count: n,
          resolve: () => {
            clearTimeout(timer);
            waiter = undefined;
            resolve();
          },
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
