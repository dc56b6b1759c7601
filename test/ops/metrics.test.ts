import { AggregatorRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeOutbox } from '../../src/entities/index.js';
import { appendChanges } from '../support/change-entries.js';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { change, createWebhook, deliveryEnv, demoTable, eventually, feed, recordId } from '../webhooks/support/webhook-support.js';

const ADMIN_TOKEN = 'admin-token-for-metrics-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, one sample per line (`name{label="value",…} number`), comments skipped. */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels` (0 when none). */
function sampleSum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(app: TestApp): Promise<Sample[]> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return parseSamples(await res.text());
}

const REQUESTS = 'basewatch_http_request_duration_seconds_count';
const UPSTREAM = 'basewatch_upstream_requests_total';

let app: TestApp;
let withoutToken: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await new Receiver().start();
  // Jobs stay off here, so the queues keep what a test puts in them.
  app = await startTestApp({ ADMIN_TOKEN, WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}` });
  withoutToken = await startTestApp();
});
afterAll(async () => {
  await app?.close();
  await withoutToken?.close();
  await receiver?.stop();
});

describe('/metrics', () => {
  it('asks for the admin token exactly as the job dashboard does, and is not there without ADMIN_TOKEN', async () => {
    for (const path of ['/metrics', '/admin/jobs/']) {
      const refused = await fetch(`${app.url}${path}`);
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get('www-authenticate'), path).toMatch(/^Basic/);
      expect(await refused.json(), path).toEqual({ message: 'Admin token required', code: 'unauthorized' });
      const wrong = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } });
      expect(wrong.status, path).toBe(401);
      expect((await fetch(`${withoutToken.url}${path}`)).status, path).toBe(404);
    }
    const basic = await fetch(`${app.url}/metrics`, {
      headers: { authorization: `Basic ${Buffer.from(`prometheus:${ADMIN_TOKEN}`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
  });

  it('answers Prometheus text with the process metrics of this process', async () => {
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE basewatch_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE basewatch_upstream_requests_total counter');
    expect(text).toContain('# TYPE basewatch_job_runs_total counter');
    expect(text).toContain('# TYPE basewatch_webhook_delivery_attempts_total counter');
    const samples = parseSamples(text);
    expect(sampleSum(samples, 'basewatch_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleSum(samples, 'basewatch_process_start_time_seconds')).toBeGreaterThan(0);
  });

  it('times REST requests by API and route template, never by the ids in the path', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const route = '/usage/bases/:id/snapshots';
    const before = await scrape(app);
    expect((await app.http('GET', `/usage/bases/${base.id}/snapshots`)).status).toBe(200);
    expect((await app.http('GET', `/usage/bases/${base.id}/snapshots`)).status).toBe(200);
    // Refused before any route ran (malformed JSON), and a path no route serves.
    expect((await app.http('POST', '/usage/bases', { raw: '{"baseId":' })).status).toBe(400);
    expect((await fetch(`${app.url}/no-such-api-path`, { headers: { accept: 'application/json' } })).status).toBe(404);

    const after = await scrape(app);
    const labels = { api: 'rest', route, method: 'GET', status: '200' };
    expect(sampleSum(after, REQUESTS, labels) - sampleSum(before, REQUESTS, labels)).toBe(2);
    const malformed = { api: 'rest', route: '/usage/bases', method: 'POST', status: '400' };
    expect(sampleSum(after, REQUESTS, malformed) - sampleSum(before, REQUESTS, malformed)).toBe(1);
    const unmatched = { api: 'rest', route: 'unmatched', method: 'GET', status: '404' };
    expect(sampleSum(after, REQUESTS, unmatched) - sampleSum(before, REQUESTS, unmatched)).toBe(1);
    // The buckets of the same series: the request took less than 30 s, so it is in the 30 s bucket.
    expect(sampleSum(after, 'basewatch_http_request_duration_seconds_bucket', { ...labels, le: '30' })).toBe(
      sampleSum(after, REQUESTS, labels),
    );
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(base.id)))).toBe(false);
  });

  it('times GraphQL requests under api="graphql"', async () => {
    const labels = { api: 'graphql', route: '/graphql', method: 'POST', status: '200' };
    const before = sampleSum(await scrape(app), REQUESTS, labels);
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ airtableBases { id name } }' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { airtableBases: unknown[] } }).data.airtableBases.length).toBeGreaterThan(0);
    expect(sampleSum(await scrape(app), REQUESTS, labels) - before).toBe(1);
  });

  it('counts upstream requests by operation, and the 429s among them', async () => {
    const before = await scrape(app);
    await trackBase(app.http, DEMO_BASES.catalog);
    const tracked = await scrape(app);
    expect(sampleSum(tracked, UPSTREAM, { operation: 'list_bases', outcome: 'ok' })).toBeGreaterThan(
      sampleSum(before, UPSTREAM, { operation: 'list_bases', outcome: 'ok' }),
    );
    expect(tracked.some((s) => s.name === UPSTREAM && s.labels.operation === 'other')).toBe(false);

    const { faults } = app.running.sandbox!;
    faults.update({ errorRate: 1, errorStatus: 429 });
    try {
      expect((await app.http('GET', '/airtable/bases')).status).toBeGreaterThanOrEqual(400);
    } finally {
      faults.reset();
    }
    const limited = await scrape(app);
    // Every attempt of the call: the first and its retries.
    expect(sampleSum(limited, UPSTREAM, { operation: 'list_bases', outcome: 'rate_limited' })).toBeGreaterThanOrEqual(2);
  });

  it('reports the depth of the audit outbox and of the pending webhook deliveries', async () => {
    const empty = await scrape(app);
    expect(
      empty
        .filter((s) => s.name === 'basewatch_queue_depth')
        .map((s) => s.labels.queue)
        .sort(),
    ).toEqual(['audit_outbox', 'webhook_deliveries']);
    const outboxBefore = sampleSum(empty, 'basewatch_queue_depth', { queue: 'audit_outbox' });
    const deliveriesBefore = sampleSum(empty, 'basewatch_queue_depth', { queue: 'webhook_deliveries' });

    const catalog = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const changeLog = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    const created = await app.http('POST', '/monitoring-config', { body: { baseId: catalog, monitoringBaseId: changeLog } });
    expect(created.status).toBe(201);
    const configId = created.body.config.id as string;
    const { dataSource } = app.running.services;
    const entries = await appendChanges(dataSource, configId, [
      { occurredAt: '2026-01-05T10:00:00.000Z' },
      { occurredAt: '2026-01-05T10:01:00.000Z' },
    ]);
    await dataSource.getRepository(ChangeOutbox).insert(
      entries.map((entry) => ({
        entryId: Number(entry.id),
        configId,
        batchToken: null,
        attempts: 0,
        nextAttemptAt: new Date(),
        lastError: null,
      })),
    );

    const table = await demoTable(app.http);
    await createWebhook(app.http, {
      baseId: table.baseId,
      event: 'record_update',
      tableId: table.tableId,
      webhookUrl: receiver.url('/queued'),
    });
    const [field] = table.fieldIds;
    const update = change('record_update', {
      tableId: table.tableId,
      recordId: recordId(),
      fieldIds: [field!],
      before: { [field!]: 'a' },
      after: { [field!]: 'b' },
    });
    await feed(app, app.accountId, table.baseId, [update]);

    const queued = await scrape(app);
    expect(sampleSum(queued, 'basewatch_queue_depth', { queue: 'audit_outbox' }) - outboxBefore).toBe(2);
    expect(sampleSum(queued, 'basewatch_queue_depth', { queue: 'webhook_deliveries' }) - deliveriesBefore).toBe(1);
    // Creating the config and the webhook used the schema and webhook endpoints: each by its name, none unknown.
    const operations = new Set(queued.filter((s) => s.name === UPSTREAM).map((s) => s.labels.operation));
    expect(operations).toContain('create_table');
    expect(operations).toContain('create_webhook');
    expect(operations).not.toContain('other');
  });

  it('sums across workers what each counts, and takes the shared database’s queue depths once', async () => {
    // Two workers of one host reading one database report the same depths: what a cluster primary would aggregate.
    const worker = await app.running.metrics.registry.getMetricsAsJSON();
    const one = parseSamples(await AggregatorRegistry.aggregate([worker]).metrics());
    const two = parseSamples(await AggregatorRegistry.aggregate([worker, worker]).metrics());
    expect(sampleSum(one, 'basewatch_queue_depth', { queue: 'audit_outbox' })).toBeGreaterThan(0);
    expect(sampleSum(two, 'basewatch_queue_depth', { queue: 'audit_outbox' })).toBe(
      sampleSum(one, 'basewatch_queue_depth', { queue: 'audit_outbox' }),
    );
    expect(sampleSum(one, REQUESTS)).toBeGreaterThan(0);
    expect(sampleSum(two, REQUESTS)).toBe(2 * sampleSum(one, REQUESTS));
    expect(sampleSum(two, UPSTREAM)).toBe(2 * sampleSum(one, UPSTREAM));
    expect(sampleSum(two, 'basewatch_process_resident_memory_bytes')).toBe(2 * sampleSum(one, 'basewatch_process_resident_memory_bytes'));
  });
});

describe('/metrics of a process that runs jobs', () => {
  let jobsApp: TestApp;
  let jobsReceiver: Receiver;
  beforeAll(async () => {
    jobsReceiver = await new Receiver().start();
    jobsApp = await startTestApp({ ADMIN_TOKEN, ...deliveryEnv(jobsReceiver.port) });
  });
  afterAll(async () => {
    await jobsApp?.close();
    await jobsReceiver?.stop();
  });

  it('counts webhook delivery attempts by outcome', async () => {
    // The first attempt is refused (retried after 100 ms), the second accepted.
    jobsReceiver.answer = (_request, index) => ({ status: index === 0 ? 503 : 200 });
    const table = await demoTable(jobsApp.http);
    await createWebhook(jobsApp.http, {
      baseId: table.baseId,
      event: 'record_update',
      tableId: table.tableId,
      webhookUrl: jobsReceiver.url('/hook'),
    });
    const [field] = table.fieldIds;
    const update = change('record_update', {
      tableId: table.tableId,
      recordId: recordId(),
      fieldIds: [field!],
      before: { [field!]: 'a' },
      after: { [field!]: 'b' },
    });
    await feed(jobsApp, jobsApp.accountId, table.baseId, [update]);
    await jobsReceiver.waitFor('/hook', 2);

    const samples = await eventually(
      () => scrape(jobsApp),
      (s) => sampleSum(s, 'basewatch_webhook_delivery_attempts_total', { outcome: 'delivered' }) >= 1,
    );
    expect(sampleSum(samples, 'basewatch_webhook_delivery_attempts_total', { outcome: 'retry_scheduled' })).toBe(1);
    expect(sampleSum(samples, 'basewatch_webhook_delivery_attempts_total', { outcome: 'delivered' })).toBe(1);
    // Once stored as delivered it no longer waits: a finished delivery is not in the queue.
    const drained = await eventually(
      () => scrape(jobsApp),
      (s) => sampleSum(s, 'basewatch_queue_depth', { queue: 'webhook_deliveries' }) === 0,
    );
    expect(sampleSum(drained, 'basewatch_queue_depth', { queue: 'webhook_deliveries' })).toBe(0);
  });

  it('counts job runs and failures by job name', async () => {
    const { agenda } = jobsApp.running.scheduler;
    agenda.define('metrics-test.ok', async () => undefined);
    agenda.define('metrics-test.fails', async () => {
      throw new Error('this job always fails');
    });
    await agenda.now('metrics-test.ok');
    await agenda.now('metrics-test.fails');

    const samples = await eventually(
      () => scrape(jobsApp),
      (s) => sampleSum(s, 'basewatch_job_runs_total', { job: 'metrics-test.fails', outcome: 'failure' }) >= 1,
    );
    expect(sampleSum(samples, 'basewatch_job_runs_total', { job: 'metrics-test.ok', outcome: 'success' })).toBe(1);
    expect(sampleSum(samples, 'basewatch_job_runs_total', { job: 'metrics-test.fails', outcome: 'failure' })).toBe(1);
    expect(sampleSum(samples, 'basewatch_job_runs_total', { job: 'metrics-test.fails', outcome: 'success' })).toBe(0);
  });
});
