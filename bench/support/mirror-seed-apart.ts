import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../src/logger.js';
import type { BaseSummary } from '../../src/sandbox/index.js';
import { startServer } from '../../src/server.js';
import { tallyBaseCalls, type BaseCalls } from './base-calls.js';
import { benchConfig } from './bench-config.js';
import { sendExpecting } from './http.js';
import { count, seconds } from './markdown.js';
import type { MirrorBenchSizes } from './mirror-sizes.js';
import { progress } from './progress.js';
import { startStandaloneSandbox } from './standalone-sandbox.js';
import { withTempDir } from './temp-dir.js';

const SANDBOX_TOKEN = 'bench-mirror-seed-sandbox-token';
const LOG_BASE = 'Change Log';

interface SandboxStats {
  byBase: Record<string, { requests: number; rateLimited: number }>;
}

export interface SeedApart {
  sizes: MirrorBenchSizes;
  before: BaseSummary;
  seed: { ms: number; calls: BaseCalls; refused: number; outcome: string };
  /** Records, files and bytes per table: the mirror's after the seed, and the sandbox's. */
  mirrored: TableTotals[];
  upstream: TableTotals[];
}

export interface TableTotals {
  tableId: string;
  records: number;
  files: number;
  bytes: number;
}

/**
 * The seed of part 1 against the sandbox in its own process (bench/support/standalone-sandbox.ts), reached over
 * loopback as the service reaches the platform: the service in this process (SQLite file, real-upstream mode with
 * the sandbox's token), the large base made through the sandbox's control API, the seed called as the mirror.seed
 * job calls it. Requests are told apart at the client; 429s are the sandbox's own count.
 */
export async function measureSeedApart(sizes: MirrorBenchSizes): Promise<SeedApart> {
  const sandbox = await startStandaloneSandbox(SANDBOX_TOKEN);
  try {
    return await withTempDir('basewatch-bench-mirror-seed-', async (dir) => {
      const { records, tables, fieldsPerTable, attachmentsPerRecord } = sizes.base;
      progress(`mirror: the sandbox in its own process: a base of ${count(records)} records (${tables} tables, ${fieldsPerTable} fields)`);
      await sandbox.control('PUT', 'faults', { rateLimitPerSecond: 5, latencyMs: sizes.latencyMs });
      const made = await sandbox.control<{ id: string; summary: BaseSummary }>('POST', 'bases/large', {
        name: 'Mirror bench (apart)',
        tables,
        recordsPerTable: Math.ceil(records / tables),
        attachmentsPerRecord,
        fieldsPerTable,
      });
      const baseId = made.id;
      const config = benchConfig(join(dir, 'bench.sqlite'), {
        SCHEDULER_RUN_JOBS: 'false',
        AIRTABLE_API_URL: sandbox.url,
        AIRTABLE_TOKEN: SANDBOX_TOKEN,
      });
      const running = await startServer(config, createLogger(config.logLevel));
      try {
        const { services } = running;
        const { apiKey } = await services.accounts.create('bench');
        const logBaseId = await baseNamed(sandbox.url, LOG_BASE);
        await sendExpecting(201, `${running.url}/monitoring-config`, {
          method: 'POST',
          apiKey,
          body: { baseId, monitoringBaseId: logBaseId, scope: 'records_only' },
        });
        const refused = async () => (await sandbox.control<SandboxStats>('GET', 'stats')).byBase[baseId]?.rateLimited ?? 0;
        // The base's window empty before the measured seed starts.
        await sleep(1_200);
        const refusedBefore = await refused();
        const list = made.summary.tables.reduce((sum, table) => sum + Math.ceil(table.records / 100), 0);
        progress(`mirror: seeding from the sandbox in its own process (${count(list)} list requests at 5/s: about ${seconds(list * 200)})`);
        const tally = tallyBaseCalls(baseId);
        const started = performance.now();
        const ticker = setInterval(() => progress(`mirror: seed (apart), ${seconds(performance.now() - started)}`), 20_000);
        let outcome: string;
        let calls: BaseCalls;
        try {
          outcome = await services.mirrorSeeds.seed(baseId);
        } finally {
          clearInterval(ticker);
          calls = tally.stop();
        }
        const ms = performance.now() - started;
        const mirrored = (
          await services.dataSource.query(
            `SELECT table_id AS "tableId", COUNT(*) AS records, SUM(file_count) AS files, SUM(attachment_bytes) AS bytes
             FROM mirror_record WHERE base_id = ? AND deleted_at IS NULL GROUP BY table_id`,
            [baseId],
          )
        )
          .map((row: Record<string, unknown>) => ({
            tableId: String(row.tableId),
            records: Number(row.records),
            files: Number(row.files),
            bytes: Number(row.bytes),
          }))
          .sort((a: TableTotals, b: TableTotals) => a.tableId.localeCompare(b.tableId));
        const truth = await sandbox.control<BaseSummary>('GET', `bases/${baseId}/summary`);
        const upstream = truth.tables
          .map((table) => ({ tableId: table.id, records: table.records, files: table.attachments, bytes: table.attachmentBytes }))
          .sort((a, b) => a.tableId.localeCompare(b.tableId));
        return {
          sizes,
          before: made.summary,
          seed: { ms, calls, refused: (await refused()) - refusedBefore, outcome },
          mirrored,
          upstream,
        };
      } finally {
        await running.close();
      }
    });
  } finally {
    await sandbox.stop();
  }
}

async function baseNamed(sandboxUrl: string, name: string): Promise<string> {
  const res = await fetch(`${sandboxUrl}/v0/meta/bases`, { headers: { authorization: `Bearer ${SANDBOX_TOKEN}` } });
  const { bases } = (await res.json()) as { bases: Array<{ id: string; name: string }> };
  const base = bases.find((candidate) => candidate.name === name);
  if (!base) throw new Error(`the standalone sandbox has no base named ${name}`);
  return base.id;
}
