import { count, type ReportTable } from './support/markdown.js';
import { applyTables, measureMirrorApply } from './support/mirror-apply-run.js';
import { lifecycleTables, seedApartTable } from './support/mirror-lifecycle-report.js';
import { runMirrorLifecycle } from './support/mirror-lifecycle.js';
import { measureSeedApart } from './support/mirror-seed-apart.js';
import { measureMirrorReads } from './support/mirror-reads.js';
import { mirrorBenchSizes } from './support/mirror-sizes.js';

/**
 * The mirror of a watched base (issue 25): its seed, a day of changes and the count from it, a restore (through the
 * app against its sandbox at 5 requests/s per base), changes applied on SQLite and PostgreSQL, reads of a record at an
 * instant and of its history under load, and the bytes a version costs. `MIRROR_BENCH_QUICK=1` runs it smaller (a few
 * minutes), `MIRROR_BENCH_RECORDS` sets the watched base's size, `MIRROR_BENCH_LATENCY_MS` the sandbox's latency,
 * `MIRROR_BENCH_PARTS` (lifecycle, seed-apart, apply, reads; comma-separated) runs only some parts; seed-apart seeds
 * the same base from the sandbox in its own process.
 */
export async function runMirrorBench(): Promise<ReportTable[]> {
  const sizes = mirrorBenchSizes();
  const sizeTable: ReportTable = {
    title: `Mirror bench sizes${sizes.quick ? ' (MIRROR_BENCH_QUICK=1: reduced)' : ''}`,
    headers: ['part', 'size'],
    rows: [
      [
        'watched base (seed, day, counts, restore)',
        `${count(sizes.base.records)} records, ${sizes.base.tables} tables, ${sizes.base.fieldsPerTable} fields, ${sizes.base.attachmentsPerRecord} files a record; sandbox latency ${sizes.latencyMs} ms`,
      ],
      ['day of changes', count(sizes.dayChanges)],
      ['restore', `${count(sizes.restoreRecords)} deleted records`],
      [
        'changes applied',
        `mirror of ${count(sizes.apply.records)} records; ${count(sizes.apply.pageChanges)} changes 500 a transaction, ${count(sizes.apply.payloadChanges)} 10 a transaction`,
      ],
      [
        'reads',
        `${count(sizes.history.records)} records, ${count(sizes.history.versions)} versions; ${sizes.load.connections} clients, ${sizes.load.seconds} s a row`,
      ],
    ],
  };
  const parts = new Set((process.env.MIRROR_BENCH_PARTS ?? 'lifecycle,seed-apart,apply,reads').split(','));
  const tables = [sizeTable];
  if (parts.has('lifecycle')) tables.push(...lifecycleTables(await runMirrorLifecycle(sizes)));
  if (parts.has('seed-apart')) tables.push(seedApartTable(await measureSeedApart(sizes)));
  if (parts.has('apply')) tables.push(...applyTables(await measureMirrorApply(sizes)));
  if (parts.has('reads')) tables.push(...(await measureMirrorReads(sizes)));
  return tables;
}
