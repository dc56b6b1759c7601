/**
 * Sizes of the mirror bench (issue 25): the by default; `MIRROR_BENCH_QUICK=1` for a run of a few minutes;
 * `MIRROR_BENCH_RECORDS` sets the watched base's size alone. Every table the bench prints says the size it used.
 */
export interface MirrorBenchSizes {
  quick: boolean;
  /** The watched base of parts 1, 2 and 5: its records (over `tables` tables), fields per table, files per record. */
  base: { records: number; tables: number; fieldsPerTable: number; attachmentsPerRecord: number };
  /** The sandbox's answer latency during parts 1, 2 and 5 (its per-base limit is always the real 5 requests/s). */
  latencyMs: number;
  /** The day of changes made upstream and read through the watch before the count from the mirror. */
  dayChanges: number;
  /** Records deleted and then restored. */
  restoreRecords: number;
  /** Part 3: records in the mirror the changes are applied to, and how many changes per batch size. */
  apply: { records: number; pageChanges: number; payloadChanges: number };
  /** Part 4: the mirror read under load. */
  history: { records: number; versions: number };
  load: { connections: number; warmUpSeconds: number; seconds: number };
}

export function mirrorBenchSizes(env: NodeJS.ProcessEnv = process.env): MirrorBenchSizes {
  const quick = env.MIRROR_BENCH_QUICK === '1';
  const records = positive(env.MIRROR_BENCH_RECORDS, quick ? 20_000 : 100_000, 'MIRROR_BENCH_RECORDS');
  return {
    quick,
    base: { records, tables: 10, fieldsPerTable: 50, attachmentsPerRecord: 2 },
    latencyMs: positive(env.MIRROR_BENCH_LATENCY_MS, 0, 'MIRROR_BENCH_LATENCY_MS', true),
    dayChanges: quick ? 2_000 : 10_000,
    restoreRecords: 1_000,
    apply: quick
      ? { records: 10_000, pageChanges: 5_000, payloadChanges: 1_000 }
      : { records: 100_000, pageChanges: 20_000, payloadChanges: 3_000 },
    history: quick ? { records: 10_000, versions: 100_000 } : { records: 100_000, versions: 1_000_000 },
    load: { connections: 32, warmUpSeconds: 3, seconds: quick ? 8 : 15 },
  };
}

function positive(text: string | undefined, fallback: number, name: string, zeroAllowed = false): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < (zeroAllowed ? 0 : 1))
    throw new Error(`${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} integer`);
  return value;
}
