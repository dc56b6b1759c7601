import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * One copy of graphql: vite would give our imports graphql's ESM build while dependencies (Apollo, type-graphql,
 * graphql-ws) load its CommonJS build under Node, and graphql refuses types from "another module or realm".
 */
const singleGraphql: Plugin = {
  name: 'single-graphql',
  enforce: 'pre',
  resolveId: (id) => (id === 'graphql' || id.startsWith('graphql/') ? require.resolve(id.replace(/\.mjs$/, '')) : null),
};

/**
 * The second tier: files that start processes (the built app, replicas, the CLI, the standalone sandbox) or drive
 * Chromium. They run after the in-process tier, two at a time, so that their start-up deadlines are not met on a
 * machine that the first tier keeps busy.
 */
const PROCESS_TIER = [
  'test/e2e/**/*.test.ts',
  'test/replicas/**/*.test.ts',
  'test/web/**/*.test.ts',
  'test/auth/web-sessions.test.ts',
  'test/graphql/built-app.test.ts',
  'test/graphql/cors-browser.test.ts',
  'test/graphql/offline-ide.test.ts',
  'test/graphql/schema-file.test.ts',
  'test/integration/auth-revocation.test.ts',
  'test/integration/connections.test.ts',
  'test/integration/security-headers.test.ts',
  'test/jobs/sqlite-backend-processes.test.ts',
  'test/mirror/mirror-restore-kill.test.ts',
  'test/sandbox/standalone.test.ts',
];

/**
 * Files whose rules depend on calendar days and zones run a second and third time with the machine's zone on either
 * side of the date line, so that no test assumes the machine's day is the UTC day.
 */
const DATE_HEAVY = [
  'test/unit/calendar.test.ts',
  'test/unit/daily-schedule.test.ts',
  'test/unit/forecast.test.ts',
  'test/unit/api-call-projection.test.ts',
  'test/usage/usage-forecast.test.ts',
  'test/integration/snapshots.test.ts',
  'test/integration/changes-query.test.ts',
  'test/integration/usage-bases.test.ts',
  'test/jobs/usage-schedule.e2e.test.ts',
];
const MACHINE_ZONES = ['Pacific/Kiritimati', 'Etc/GMT+12'];

/**
 * Most tests wait on I/O (SQLite, the in-process sandbox, timers) more than they compute: three files at a time keep
 * two cores busy (vitest's default on two cores is one file at a time).
 */
const IN_PROCESS_WORKERS = 3;

export default defineConfig({
  plugins: [singleGraphql],
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: PROCESS_TIER, maxWorkers: IN_PROCESS_WORKERS },
      },
      ...MACHINE_ZONES.map((zone) => ({
        extends: true as const,
        test: { name: `TZ=${zone}`, include: DATE_HEAVY, env: { TZ: zone }, maxWorkers: IN_PROCESS_WORKERS },
      })),
      {
        extends: true,
        test: { name: 'processes', include: PROCESS_TIER, maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
