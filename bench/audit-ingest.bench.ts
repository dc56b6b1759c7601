import { join } from 'node:path';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';
import { count, seconds, type ReportTable } from './support/markdown.js';
import { benchConfig } from './support/bench-config.js';
import { progress } from './support/progress.js';
import { withTempDir } from './support/temp-dir.js';

const PAYLOADS = 2_000;
const RECORDS_PER_PAYLOAD = 10;
const ROWS_FOR_WRITER = 500;

/**
 * Ingestion on SQLite: 20,000 record changes (2,000 payloads of 10) waiting upstream are read and committed as
 * entries (two configs: scope all and records_only, so 40,000 entries, their outbox rows and field rows). Run with
 * the client's per-base pace at 5 and at 50 requests/s to separate the platform's pace from our own cost. Then the
 * Changes-table writer: rows written per second against the floor of 10 rows × 5 requests/s.
 */
export async function runAuditIngestBench(): Promise<ReportTable[]> {
  const rows: string[][] = [];
  let writerRow: string[] = [];
  for (const pace of [50, 5]) {
    await withTempDir('basewatch-bench-ingest-', async (dir) => {
      const config = benchConfig(join(dir, 'bench.sqlite'), { SCHEDULER_RUN_JOBS: 'false', UPSTREAM_REQUESTS_PER_SECOND: String(pace) });
      const running = await startServer(config, createLogger(config.logLevel));
      try {
        const { services } = running;
        const sandbox = running.sandbox!;
        sandbox.faults.update({ rateLimitPerSecond: 1_000 });
        const bases = sandbox.store.listBases();
        const watched = bases.find((b) => b.name === 'Marketing Assets')!;
        const logBase = bases.find((b) => b.name === 'Change Log')!;
        const { account } = await services.accounts.create('bench');
        const all = await services.monitoringConfigs.create(account.id, { baseId: watched.id, monitoringBaseId: logBase.id });
        await services.monitoringConfigs.create(account.id, { baseId: watched.id, monitoringBaseId: logBase.id, scope: 'records_only' });
        const watch = (await services.watches.find({ baseId: watched.id }))!;
        const table = watched.tables[0]!;
        progress(`audit ingest (${pace} req/s): making ${count(PAYLOADS * RECORDS_PER_PAYLOAD)} upstream changes`);
        for (let i = 0; i < PAYLOADS; i += 1) {
          const records = Array.from({ length: RECORDS_PER_PAYLOAD }, (_, j) => ({ [table.primaryFieldId]: `Bench ${i}-${j}` }));
          sandbox.store.createRecords(watched.id, table.id, records);
        }
        const requestsBefore = services.upstream.stats.requests;
        const started = performance.now();
        const result = await services.changeIngest.ingest(watch.id);
        const wall = performance.now() - started;
        const requests = services.upstream.stats.requests - requestsBefore;
        rows.push([
          `${pace} req/s per base`,
          count(result.payloads),
          count(result.changes),
          count(result.entries),
          count(requests),
          seconds(wall),
          count(Math.round(result.changes / (wall / 1000))),
          count(Math.round(result.entries / (wall / 1000))),
        ]);
        if (pace === 5) {
          progress(`audit ingest: writing ${ROWS_FOR_WRITER} rows into the Changes table`);
          const { dataSource } = running;
          // Only the first ROWS_FOR_WRITER outbox rows of one config stay; the writer's floor is 50 rows/s.
          await dataSource.query(
            `DELETE FROM change_outbox WHERE config_id <> ? OR entry_id NOT IN (SELECT entry_id FROM change_outbox WHERE config_id = ? ORDER BY entry_id LIMIT ${ROWS_FOR_WRITER})`,
            [all.id, all.id],
          );
          const t0 = performance.now();
          const before = services.upstream.stats.requests;
          const drained = await services.changeWriter.drain(all.id);
          const writeWall = performance.now() - t0;
          const floorMs = (ROWS_FOR_WRITER / 10 / 5) * 1000;
          writerRow = [
            count(drained.written),
            count(services.upstream.stats.requests - before),
            seconds(writeWall),
            seconds(floorMs),
            `${(writeWall / floorMs).toFixed(2)}×`,
            count(Math.round(drained.written / (writeWall / 1000))),
          ];
        }
      } finally {
        await running.close();
      }
    });
  }
  return [
    {
      title: 'Ingestion: upstream payloads → committed entries (SQLite, one transaction per page of 50 payloads)',
      headers: ['client pace', 'payloads', 'changes', 'entries (2 configs)', 'upstream requests', 'wall', 'changes/s', 'entries/s'],
      rows,
      notes: [
        'Each page commits entries, field rows, outbox rows and the cursor together; at 5 req/s the platform’s pace is the floor (40 pages ≥ 8 s).',
      ],
    },
    {
      title: 'Changes-table writer vs the upstream floor (10 rows a request, 5 requests/s per base)',
      headers: ['rows', 'requests', 'wall', 'floor', 'wall/floor', 'rows/s'],
      rows: [writerRow],
    },
  ];
}
