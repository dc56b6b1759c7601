import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * The last tier: files that start processes (the built app, replicas, the CLI, the standalone sandbox) or drive
 * Chromium. They run after the in-process tiers, two at a time, so that their start-up deadlines are not met on a
 * machine that the first tier keeps busy.
 */
const PROCESS_TIER = [
  'test/e2e/**/*.test.ts',
  'test/replicas/**/*.test.ts',
  'test/web/audit-and-webhooks.test.ts',
  'test/web/built-app.test.ts',
  'test/web/graphql-env.test.ts',
  'test/web/usage-insight.test.ts',
  'test/web/web-app.test.ts',
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
 * The in-process tier: files that start the whole app in the test process (test/support/test-app.ts, or
 * src/server.ts itself) and talk to it over HTTP; found by that import, so that a new file lands here by itself.
 * The unit tier is every other file outside the process tier: rules and pieces without the app.
 */
const STARTS_THE_APP = /\bimport \{[^}]*\b(startTestApp|startServer)\b[^}]*\} from '[^']*\/(test-app|server)\.js'/;
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const testFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
const APP_TIER = testFiles('test').filter((file) => STARTS_THE_APP.test(readFileSync(join(ROOT, file), 'utf8')));

/**
 * Files whose rules depend on calendar days and zones run a second and third time with the machine's zone on either
 * side of the date line, so that no test assumes the machine's day is the UTC day: the calendar and schedule units,
 * and of the app, the daily schedule through Agenda (the one place where a dependency could read the machine's zone:
 * every zone of ours is explicit) and the snapshot days it stores.
 */
const DATE_HEAVY = [
  'test/unit/calendar.test.ts',
  'test/unit/daily-schedule.test.ts',
  'test/unit/forecast.test.ts',
  'test/unit/api-call-projection.test.ts',
  'test/integration/snapshots.test.ts',
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
    /**
     * Files share the loaded code of their worker: importing the app's ~400 modules took seconds per file, more than
     * half of the in-process tier's time. Each file still starts its own app, database and sandbox; what modules
     * keep for the process is the upstream limiter's windows (keyed by the upstream's URL, which carries each app's
     * port; the limiter's own tests reset it) and caches of constant data.
     */
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...PROCESS_TIER, ...APP_TIER], maxWorkers: IN_PROCESS_WORKERS },
      },
      {
        extends: true,
        test: { name: 'in-process', include: APP_TIER, exclude: PROCESS_TIER, maxWorkers: IN_PROCESS_WORKERS },
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
