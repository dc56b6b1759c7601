import type { TableCount } from '../../src/entities/index.js';
import type { RunningServer } from '../../src/server.js';
import { createRandom, hashSeed } from '../../src/sandbox/prng.js';

export interface HistoryOptions {
  tables: number;
  days: number;
  /** The newest day, YYYY-MM-DD. */
  lastDay: string;
}

export interface SeededHistory {
  accountId: string;
  usageBaseId: string;
  days: number;
}

const DAY_MS = 86_400_000;

/**
 * Tracks a demo base for the account holding `apiKey` and records one snapshot a day of `tables` tables through
 * SnapshotService (ids and names are the upstream's own: 17-character `tbl…` ids, "Table 12").
 */
export async function seedSnapshotHistory(running: RunningServer, apiKey: string, options: HistoryOptions): Promise<SeededHistory> {
  const { services, sandbox } = running;
  if (!sandbox) throw new Error('Seeding needs the built-in sandbox upstream (AIRTABLE_TOKEN unset)');
  // The tracked base is one of the demo seed, which the built service's sandbox has too: a base its connection does
  // not see is not_found there. The tables counted are a large base's of this process (only their ids and names are stored).
  const [tracked] = sandbox.store.listBases();
  const upstream = sandbox.store.seedLargeBase({ name: 'History bench', tables: options.tables, recordsPerTable: 0 });
  const { account } = await services.accounts.ensureKey(apiKey, 'bench');
  const base = await services.usageBases.create(account.id, { baseId: tracked.id, baseName: 'History bench' });
  const growth = upstream.tables.map((table, index) => tableGrowth(table.id, table.name, index));
  const firstDay = Date.parse(`${options.lastDay}T00:00:00Z`) - (options.days - 1) * DAY_MS;
  for (let day = 0; day < options.days; day++) {
    const start = firstDay + day * DAY_MS;
    const date = new Date(start).toISOString().slice(0, 10);
    await services.snapshots.record(
      base.id,
      date,
      growth.map((table) => table.on(day)),
      new Date(start + 2 * 3_600_000),
    );
  }
  return { accountId: account.id, usageBaseId: base.id, days: options.days };
}

/** A table that grows steadily with some daily noise: sizes spread over three orders of magnitude, as real bases do. */
function tableGrowth(tableId: string, tableName: string, index: number) {
  const random = createRandom(hashSeed('history bench', index));
  const initialRecords = Math.round(50 * 400 ** random());
  const dailyGrowth = random() * 0.0008;
  const filesPerRecord = random() < 0.3 ? 0 : random() * 3;
  const bytesPerFile = 50_000 + random() * 5_000_000;
  return {
    on(day: number): TableCount {
      const recordCount = Math.round(initialRecords * (1 + dailyGrowth) ** day * (0.995 + random() * 0.01));
      const fileCount = Math.round(recordCount * filesPerRecord);
      const storageBytes = Math.round(fileCount * bytesPerFile * (0.98 + random() * 0.04));
      return { tableId, tableName, recordCount, storageBytes, fileCount };
    },
  };
}
