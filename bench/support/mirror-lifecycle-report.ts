import type { TableCount } from '../../src/entities/index.js';
import { totalFor, type BaseCalls } from './base-calls.js';
import { count, seconds, verdict, type ReportTable } from './markdown.js';
import type { Lifecycle, Step } from './mirror-lifecycle.js';
import type { SeedApart } from './mirror-seed-apart.js';

const LIMIT_PER_SECOND = 5;
const WALL_FACTOR = 1.1;
const MIRROR_COUNT_MAX_CALLS = 3;

export function lifecycleTables(life: Lifecycle): ReportTable[] {
  return [seedTable(life), dayTable(life), countsTable(life), restoreTable(life)];
}

const callSummary = (calls: BaseCalls) =>
  Object.entries(calls)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${count(n)}`)
    .join(', ') || 'none';

const check = (metric: string, measured: string, target: string, ok: boolean) => [metric, measured, target, verdict(ok)];
const info = (metric: string, measured: string) => [metric, measured, '—', '—'];

function wallRows(name: string, step: Step, requests: number): string[][] {
  const floorMs = (requests / LIMIT_PER_SECOND) * 1000;
  const ok = step.ms <= floorMs * WALL_FACTOR;
  return [
    check(`wall time of ${name}`, seconds(step.ms), `≤ ${seconds(floorMs * WALL_FACTOR)} (${WALL_FACTOR} × floor)`, ok),
    info(`floor: ${count(requests)} requests at ${LIMIT_PER_SECOND}/s`, seconds(floorMs)),
    check('wall / floor', (step.ms / floorMs).toFixed(3), `≤ ${WALL_FACTOR.toFixed(3)}`, ok),
  ];
}

function seedTable({ sizes, before, seed }: Lifecycle): ReportTable {
  const list = before.tables.reduce((sum, table) => sum + Math.ceil(table.records / 100), 0);
  const requests = totalFor(seed.calls);
  const { base } = sizes;
  return {
    title:
      `Mirror seed: ${count(before.records)} records in ${base.tables} tables of ${base.fieldsPerTable} fields ` +
      `(${count(before.attachments)} files), sandbox ${LIMIT_PER_SECOND} req/s per base, ${sizes.latencyMs} ms latency`,
    headers: ['metric', 'measured', 'target', 'result'],
    rows: [
      check('outcome', seed.outcome, 'live', seed.outcome === 'live'),
      check('requests to the base', count(requests), `= ${count(list + 1)} (Σ ceil(n/100) + 1 schema read)`, requests === list + 1),
      check('… list-records requests', count(seed.calls.listRecords), `= ${count(list)}`, seed.calls.listRecords === list),
      check('… schema reads', count(seed.calls.schemaReads), '= 1', seed.calls.schemaReads === 1),
      ...wallRows('MirrorSeedService.seed', seed, list + 1),
      check('429s sent by the sandbox for the base', count(seed.refused), '0', seed.refused === 0),
      info('other upstream calls (no base named)', count(seed.calls.elsewhere)),
      info(
        'SQLite: bytes per baseline version (dbstat, mirror_version and its indexes)',
        `${count(Math.round(seed.baselineBytes))} B over ${count(seed.baselineVersions)} versions`,
      ),
    ],
    notes: [
      'The seed as the mirror.seed job runs it (services.mirrorSeeds.seed), after the monitoring config was made over ' +
        'the API; requests told apart at the client (fetch). Floor: every request at the base’s 5 a second.',
    ],
  };
}

/** The seed from the sandbox in its own process (mirror-seed-apart.ts). */
export function seedApartTable({ sizes, before, seed, mirrored, upstream }: SeedApart): ReportTable {
  const list = before.tables.reduce((sum, table) => sum + Math.ceil(table.records / 100), 0);
  const requests = totalFor(seed.calls);
  const { base } = sizes;
  const equal = JSON.stringify(mirrored) === JSON.stringify(upstream);
  const sum = (totals: typeof mirrored, key: 'records' | 'files' | 'bytes') => totals.reduce((total, table) => total + table[key], 0);
  return {
    title:
      `Mirror seed from the sandbox in its own process: ${count(before.records)} records in ${base.tables} tables of ` +
      `${base.fieldsPerTable} fields (${count(before.attachments)} files), ${LIMIT_PER_SECOND} req/s per base, ${sizes.latencyMs} ms latency`,
    headers: ['metric', 'measured', 'target', 'result'],
    rows: [
      check('outcome', seed.outcome, 'live', seed.outcome === 'live'),
      check('requests to the base', count(requests), `= ${count(list + 1)} (Σ ceil(n/100) + 1 schema read)`, requests === list + 1),
      ...wallRows('MirrorSeedService.seed', seed, list + 1),
      check('429s sent by the sandbox for the base', count(seed.refused), '0', seed.refused === 0),
      check(
        'the mirror equals the sandbox (records, files, bytes per table)',
        `${count(sum(mirrored, 'records'))} records, ${count(sum(mirrored, 'files'))} files, ${count(sum(mirrored, 'bytes'))} B`,
        `${count(sum(upstream, 'records'))}, ${count(sum(upstream, 'files'))}, ${count(sum(upstream, 'bytes'))} B in every table`,
        equal,
      ),
    ],
    notes: [
      'The standalone sandbox (`npm run sandbox`) in a process of its own, reached over loopback as the platform is ' +
        'reached; the service in the bench process in real-upstream mode with the sandbox’s token. The seed as the ' +
        'mirror.seed job runs it (services.mirrorSeeds.seed); requests told apart at the client, 429s the sandbox’s count.',
    ],
  };
}

function dayTable({ day, full, mirrorCount }: Lifecycle): ReportTable {
  const fullRequests = totalFor(full.calls);
  const countRequests = totalFor(mirrorCount.calls) + mirrorCount.calls.elsewhere;
  const { made, ingest } = day;
  return {
    title: `A day of ${count(made.updates + made.creates + made.deletes)} changes through the watch, then the daily count`,
    headers: ['metric', 'measured', 'target', 'result'],
    rows: [
      info(
        'changes made upstream',
        `${count(made.updates)} edits, ${count(made.creates)} creates, ${count(made.deletes)} deletions in ${count(made.writes)} writes (payloads)`,
      ),
      info('ingestion: payloads, changes', `${count(ingest.payloads)}, ${count(ingest.changes)}`),
      info('ingestion: upstream requests', callSummary(ingest.calls)),
      info('ingestion: wall time (audit log and mirror, one transaction a page of 50 payloads)', seconds(ingest.ms)),
      check('mirror status after the day', day.status, 'live', day.status === 'live'),
      info('full count (POST …/run): upstream requests', `${count(fullRequests)} (${callSummary(full.calls)})`),
      info('full count: wall time', seconds(full.ms)),
      check('mirror status after the full count (compared with it)', full.statusAfter, 'live', full.statusAfter === 'live'),
      check(
        'next day counted from the mirror',
        String(mirrorCount.counted && mirrorCount.fromMirror),
        'true',
        mirrorCount.counted && mirrorCount.fromMirror,
      ),
      check(
        'count from the mirror: upstream requests (all, at the client)',
        `${count(countRequests)} (${callSummary(mirrorCount.calls)})`,
        `≤ ${MIRROR_COUNT_MAX_CALLS} (full count: ${count(fullRequests)})`,
        countRequests <= MIRROR_COUNT_MAX_CALLS,
      ),
      info('… as the day records them (apiCalls)', String(mirrorCount.apiCalls)),
      info('count from the mirror: wall time', seconds(mirrorCount.ms)),
    ],
    notes: [
      'The day is written into the sandbox (10 records a write, no request spent), then read as the ingest job reads it ' +
        '(services.changeIngest.ingest). The count from the mirror is the scheduled day’s (services.mirrorCounts.countFromMirror ' +
        'for the day after the full count), made when nothing changed since: it reads the watch’s new payloads first.',
    ],
  };
}

function countsTable({ full, mirrorCount, truth }: Lifecycle): ReportTable {
  const byId = (tables: TableCount[]) => new Map(tables.map((t) => [t.tableId, t]));
  const fromFull = byId(full.tables);
  const fromMirror = byId(mirrorCount.tables);
  const pair = (a: number | undefined, b: number | undefined) => `${count(a ?? Number.NaN)} / ${count(b ?? Number.NaN)}`;
  let allEqual = full.tables.length === mirrorCount.tables.length && full.tables.length > 0;
  const rows = truth.tables.map((table) => {
    const f = fromFull.get(table.id);
    const m = fromMirror.get(table.id);
    const equal = !!f && !!m && f.recordCount === m.recordCount && f.fileCount === m.fileCount && f.storageBytes === m.storageBytes;
    const upstream =
      !!m && m.recordCount === table.records && m.fileCount === table.attachments && m.storageBytes === table.attachmentBytes;
    allEqual &&= equal && upstream;
    return [
      table.name,
      pair(f?.recordCount, m?.recordCount),
      pair(f?.fileCount, m?.fileCount),
      pair(f?.storageBytes, m?.storageBytes),
      verdict(equal),
      verdict(upstream),
    ];
  });
  const sum = (tables: TableCount[], key: 'recordCount' | 'fileCount' | 'storageBytes') => tables.reduce((s, t) => s + t[key], 0);
  rows.push([
    'all tables',
    pair(sum(full.tables, 'recordCount'), sum(mirrorCount.tables, 'recordCount')),
    pair(sum(full.tables, 'fileCount'), sum(mirrorCount.tables, 'fileCount')),
    pair(sum(full.tables, 'storageBytes'), sum(mirrorCount.tables, 'storageBytes')),
    verdict(allEqual),
    `upstream: ${count(truth.records)} records, ${count(truth.attachments)} files, ${count(truth.attachmentBytes)} bytes`,
  ]);
  return {
    title: 'Count from the mirror against the full count of the same instant, per table',
    headers: [
      'table',
      'records (full / mirror)',
      'files (full / mirror)',
      'attachment bytes (full / mirror)',
      'equal',
      'mirror = upstream (store.summarizeBase)',
    ],
    rows,
  };
}

function restoreTable({ restore }: Lifecycle): ReportTable {
  const { view, run, plan } = restore;
  const creates = Math.ceil(restore.deleted / 10);
  const total: Step = { ms: plan.ms + run.ms, calls: run.calls, refused: plan.refused + run.refused };
  const recreated = Object.keys(view?.createdRecordIds ?? {}).length;
  return {
    title: `Restore of ${count(restore.deleted)} deleted records (one table, 50 fields, files), sandbox ${LIMIT_PER_SECOND} req/s per base`,
    headers: ['metric', 'measured', 'target', 'result'],
    rows: [
      info('ingestion of the deletions: upstream requests, wall', `${callSummary(restore.ingest.calls)}; ${seconds(restore.ingest.ms)}`),
      info('POST …/restores (plan): upstream requests, wall', `${callSummary(plan.calls)}; ${seconds(plan.ms)}`),
      check(
        'restore run: create requests',
        count(run.calls.creates),
        `= ${count(creates)} (10 records a request)`,
        run.calls.creates === creates,
      ),
      info('restore run: other upstream requests', callSummary({ ...run.calls, creates: 0 })),
      info('restore run: wall time (mirrorRestores.run, as the job)', seconds(run.ms)),
      ...wallRows('the restore, POST to done', total, creates),
      check('429s sent by the sandbox for the base', count(total.refused), '0', total.refused === 0),
      check('status', view?.status ?? 'none', 'done', view?.status === 'done'),
      check('records re-created', count(recreated), `= ${count(restore.deleted)}`, recreated === restore.deleted),
      check(
        'table size upstream, before deletion / after restore',
        `${count(restore.tableRecords.before)} / ${count(restore.tableRecords.after)}`,
        'equal',
        restore.tableRecords.before === restore.tableRecords.after,
      ),
      check(
        'mirror records after the restore came back through the watch / upstream',
        `${count(restore.mirrorAfter.records)} / ${count(restore.mirrorAfter.upstream)}`,
        'equal',
        restore.mirrorAfter.records === restore.mirrorAfter.upstream,
      ),
    ],
    notes: [
      'Deleted 10 a write through the sandbox, read through the watch, then POST /monitoring-config/{id}/restores ' +
        '(planning: the records’ values before their deletion, the base’s schema) and the job’s run ' +
        '(services.mirrorRestores.run) straight after. Floor: the create requests at 5 a second.',
    ],
  };
}
