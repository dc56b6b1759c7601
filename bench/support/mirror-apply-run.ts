import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../../src/database.js';
import type { ChangeEvent, ChangeSource, IngestedBase } from '../../src/services/audit/change-event.js';
import { MirrorSink } from '../../src/services/mirror/mirror-sink.js';
import { createRandom, hashSeed } from '../../src/sandbox/prng.js';
import { createTestDatabase } from '../../test/support/postgres.js';
import { count, seconds, verdict, type ReportTable } from './markdown.js';
import { cellsOf, fillSeededMirror, type MirrorContent } from './mirror-fill.js';
import { benchSchema, editedCells, upstreamId } from './mirror-rows.js';
import type { MirrorBenchSizes } from './mirror-sizes.js';
import { processCpuTimes } from './process-stats.js';
import { progress } from './progress.js';
import { withTempDir } from './temp-dir.js';

const TARGET_PER_SECOND = 2_000;
const BASE_ID = 'appMirrorBenchAp1';
const WEBHOOK_ID = 'achMirrorBenchAp1';
const SOURCES: Array<[ChangeSource, string | null]> = [
  ['client', 'ann@example.com'],
  ['client', 'bob@example.com'],
  ['automation', null],
  ['publicApi', 'api@example.com'],
  ['formSubmission', null],
];

export interface ApplyRun {
  label: string;
  perTransaction: number;
  changes: number;
  transactions: number;
  ms: number;
  /** CPU time of this process and, on PostgreSQL, of the database's server processes, over the same transactions. */
  cpuMs: number;
}

export interface ApplyMeasurement {
  database: 'SQLite' | 'PostgreSQL';
  records: number;
  runs: ApplyRun[];
  /** Bytes of mirror_version (rows and indexes) per version: the seed's whole records, then the applied mix. */
  bytes: { baseline: number; applied: number; appliedVersions: number; how: string };
}

/**
 * Part 3 and part 6 of the mirror bench: record changes applied to a mirror of `records` records through MirrorSink
 * (what ChangeIngestService calls inside each page's transaction), on SQLite and on PostgreSQL; and what a version costs.
 */
export async function measureMirrorApply(sizes: MirrorBenchSizes): Promise<ApplyMeasurement[]> {
  const sqlite = await withTempDir('basewatch-bench-mirror-apply-', async (dir) => {
    const dataSource = await openDatabase({ type: 'sqlite', path: join(dir, 'apply.sqlite') });
    try {
      const probes = { versionBytes: () => sqliteVersionBytes(dataSource), serverCpuMs: async () => 0 };
      return await measureOn(dataSource, 'SQLite', sizes, probes, 'dbstat: pages of mirror_version and its two indexes');
    } finally {
      await dataSource.destroy();
    }
  });
  const database = await createTestDatabase();
  try {
    const dataSource = await openDatabase({ type: 'postgres', url: database.url });
    try {
      const probes = {
        versionBytes: async () => Number((await dataSource.query(`SELECT pg_total_relation_size('mirror_version') AS bytes`))[0].bytes),
        serverCpuMs: () => backendCpuMs(dataSource),
      };
      return [
        sqlite,
        await measureOn(dataSource, 'PostgreSQL', sizes, probes, 'pg_total_relation_size(mirror_version): heap, TOAST and indexes'),
      ];
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.drop();
  }
}

async function measureOn(
  dataSource: DataSource,
  database: ApplyMeasurement['database'],
  sizes: MirrorBenchSizes,
  probes: { versionBytes: () => Promise<number>; serverCpuMs: () => Promise<number> },
  how: string,
): Promise<ApplyMeasurement> {
  const { records, pageChanges, payloadChanges } = sizes.apply;
  progress(`mirror: ${database}: a mirror of ${count(records)} records of 50 fields (rows and baseline versions written directly)`);
  const { versionBytes, serverCpuMs } = probes;
  const empty = await versionBytes();
  const { content } = await fillSeededMirror(dataSource, BASE_ID, benchSchema(10), records, WEBHOOK_ID);
  const seeded = await versionBytes();
  const versionsBefore = await versionCount(dataSource);
  const changes = changeStream(content);
  const sink = new MirrorSink(() => undefined);
  const base: IngestedBase = {
    accountId: 'bench',
    baseId: BASE_ID,
    pausedAccounts: new Set(),
    webhookId: WEBHOOK_ID,
    missedPayloads: false,
  };
  const runs: ApplyRun[] = [];
  for (const [label, perTransaction, total] of [
    ['a page of 50 payloads of 10 records (a busy base)', 500, pageChanges],
    ['one payload of 10 records per transaction (a quiet base, one ping at a time)', 10, payloadChanges],
  ] as const) {
    progress(`mirror: ${database}: applying ${count(total)} changes, ${perTransaction} a transaction`);
    let ms = 0;
    let cpuMs = 0;
    let transactions = 0;
    for (let done = 0; done < total; done += perTransaction) {
      const batch = changes.next(Math.min(perTransaction, total - done));
      const server = await serverCpuMs();
      const cpu = process.cpuUsage();
      const started = performance.now();
      await dataSource.transaction((manager) => sink.accept(manager, base, batch));
      ms += performance.now() - started;
      const used = process.cpuUsage(cpu);
      cpuMs += (used.user + used.system) / 1000 + ((await serverCpuMs()) - server);
      transactions += 1;
    }
    runs.push({ label, perTransaction, changes: total, transactions, ms, cpuMs });
  }
  const applied = (await versionCount(dataSource)) - versionsBefore;
  return {
    database,
    records,
    runs,
    bytes: { baseline: (seeded - empty) / records, applied: ((await versionBytes()) - seeded) / applied, appliedVersions: applied, how },
  };
}

/** CPU time so far of the server processes serving this database's connections (the pool's, on this machine). */
async function backendCpuMs(dataSource: DataSource): Promise<number> {
  const rows: Array<{ pid: number }> = await dataSource.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return rows.reduce((sum, { pid }) => {
    const times = processCpuTimes(pid);
    return sum + (times ? times.userMs + times.systemMs : 0);
  }, 0);
}

const versionCount = async (dataSource: DataSource) => Number((await dataSource.query('SELECT COUNT(*) AS n FROM mirror_version'))[0].n);

async function sqliteVersionBytes(dataSource: DataSource): Promise<number> {
  const [row] = await dataSource.query(
    `SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('mirror_version', 'ix_mirror_version_record', 'ix_mirror_version_at')`,
  );
  return Number(row.bytes ?? 0);
}

/**
 * Changes as the ingestion hands them over (ChangeEvent, payload cells): 85 % edits of 1–3 cells, 10 % creates of
 * whole records, 5 % deletions, on records picked at random among those not deleted.
 */
export const changeStreamForProfile = (content: MirrorContent) => changeStream(content);

function changeStream(content: MirrorContent) {
  const random = createRandom(hashSeed('mirror bench changes'));
  const live = content.ids.map((_, index) => index);
  const idRandom = createRandom(hashSeed('mirror bench created ids'));
  let clock = Date.now() - 3_600_000;
  let position = 0;
  const pick = () => Math.floor(random() * live.length);
  const next = (): ChangeEvent => {
    const roll = random();
    const [source, userEmail] = SOURCES[Math.floor(random() * SOURCES.length)];
    clock += 7;
    const occurredAt = new Date(clock);
    const common = {
      kind: 'record' as const,
      occurredAt,
      source,
      userEmail,
      userName: null,
      before: null,
      position: `${WEBHOOK_ID}:${position++}:0`,
    };
    if (roll < 0.1) {
      const index = content.ids.push(upstreamId('rec', idRandom)) - 1;
      live.push(index);
      const table = tableOf(content, index);
      const after = cellsOf(content, index);
      return {
        ...common,
        eventType: 'record_create',
        tableId: table.id,
        tableName: table.name,
        recordId: content.ids[index],
        fieldIds: [],
        after,
        createdTime: occurredAt.toISOString(),
      };
    }
    if (roll < 0.15) {
      const at = pick();
      const index = live[at];
      live[at] = live[live.length - 1];
      live.pop();
      const table = tableOf(content, index);
      return {
        ...common,
        eventType: 'record_delete',
        tableId: table.id,
        tableName: table.name,
        recordId: content.ids[index],
        fieldIds: [],
        after: null,
      };
    }
    const index = live[pick()];
    const table = tableOf(content, index);
    const after = editedCells(table, random);
    return {
      ...common,
      eventType: 'record_update',
      tableId: table.id,
      tableName: table.name,
      recordId: content.ids[index],
      fieldIds: Object.keys(after),
      after,
    };
  };
  return { next: (n: number) => Array.from({ length: n }, next) };
}

const tableOf = (content: MirrorContent, index: number) => content.schema.tables[index % content.schema.tables.length];

export function applyTables(measured: ApplyMeasurement[]): ReportTable[] {
  const rows = measured.flatMap(({ database, records, runs }) =>
    runs.map((run) => {
      const perSecond = run.changes / (run.ms / 1000);
      return [
        database,
        count(records),
        run.label,
        count(run.changes),
        count(run.transactions),
        seconds(run.ms),
        count(Math.round(perSecond)),
        count(Math.round(run.changes / (run.cpuMs / 1000))),
        `≥ ${count(TARGET_PER_SECOND)}/s`,
        verdict(perSecond >= TARGET_PER_SECOND),
      ];
    }),
  );
  return [
    {
      title: 'Mirror: record changes applied (MirrorSink.accept inside a transaction, as the ingestion calls it)',
      headers: [
        'database',
        'records in the mirror',
        'transaction',
        'changes',
        'transactions',
        'time in transactions',
        'changes/s',
        'changes per CPU second',
        'target',
        'result',
      ],
      rows,
      notes: [
        'Changes: 85 % edits of 1–3 cells (5 % of them a file list), 10 % creates of whole 50-field records, 5 % deletions, ' +
          'in ChangeEvent form (payload cells); each a version row and the record’s new state. Time counts each ' +
          'transaction from BEGIN to COMMIT, nothing else; SQLite in WAL with synchronous=NORMAL (as the service opens it), ' +
          'PostgreSQL 15 on this machine with its defaults. The mirror’s rows were written directly before. “Changes per ' +
          'CPU second” divides by the CPU time this process (and on PostgreSQL the server processes of its connections) ' +
          'used in those transactions: what one free core would give, whatever else the shared machine ran. The target ' +
          'is judged on the wall-clock rate.',
      ],
    },
    {
      title: 'Mirror: bytes per record version',
      headers: [
        'database',
        'a baseline version (whole 50-field record, seed)',
        'an applied version (the mix above; every 16th whole)',
        'versions applied',
        'measured with',
      ],
      rows: measured.map(({ database, bytes }) => [
        database,
        `${count(Math.round(bytes.baseline))} B`,
        `${count(Math.round(bytes.applied))} B`,
        count(bytes.appliedVersions),
        bytes.how,
      ]),
      notes: [
        'Size of the table and its indexes after the rows were written, over the number of versions written, ' +
          'page overhead and free space in pages included. A record with two attachments serialises to about 2 KB of JSON.',
      ],
    },
  ];
}
