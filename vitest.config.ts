import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.js';

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
 * Tiers, found from each file's imports so that a new file lands in its tier by itself:
 * - processes: files that start processes (the built app, replicas, the CLI, the standalone sandbox, a killed
 *   worker) or drive Chromium.
 * - http: files that start the whole app in the test process (test/support/test-app.ts, or src/server.ts itself)
 *   and talk to it over HTTP: the transports.
 * - services: files that test the rules on the services, a real temporary database and the in-process sandbox,
 *   without HTTP (test/support/test-services.ts).
 * - unit: every other file: pieces without the services.
 */
const STARTS_PROCESSES =
  /(\bfrom |\bimport\()'(node:child_process|playwright-core|[^']*\/support\/(processes|built-service|browser-pages|cli-process)\.js)'/;
const STARTS_THE_APP = /\bimport \{[^}]*\b(startTestApp|startServer)\b[^}]*\} from '[^']*\/(test-app|server)\.js'/;
const STARTS_THE_SERVICES = /\bimport \{[^}]*\b(startTestServices|servicesOn)\b[^}]*\} from '[^']*\/test-services\.js'/;
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const testFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The file's own source and that of the test helpers it imports from its folder (e.g. test/mirror/mirror-flow.ts). */
const withLocalHelpers = (file: string): string => {
  const text = source(file);
  const helpers = [...text.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((match) => join(dirname(file), `${match[1]}.ts`));
  return [text, ...helpers.filter((helper) => existsSync(join(ROOT, helper))).map(source)].join('\n');
};
const tierOf = (file: string): 'processes' | 'http' | 'services' | 'unit' => {
  const text = withLocalHelpers(file);
  if (STARTS_PROCESSES.test(text)) return 'processes';
  if (STARTS_THE_APP.test(text)) return 'http';
  return STARTS_THE_SERVICES.test(text) ? 'services' : 'unit';
};
const TIERS = testFiles('test').map((file) => ({ file, tier: tierOf(file) }));
const inTier = (tier: ReturnType<typeof tierOf>) => TIERS.filter((entry) => entry.tier === tier).map((entry) => entry.file);
const PROCESS_TIER = inTier('processes');
const HTTP_TIER = inTier('http');
const SERVICE_TIER = inTier('services');
const UNIT_TIER = inTier('unit');

/**
 * Files whose rules depend on calendar days and zones run a second and third time with the machine's zone on either
 * side of the date line, so that no test assumes the machine's day is the UTC day: the calendar and schedule units,
 * and of the app, the daily schedule on the services and through Agenda (the one place where a dependency could read
 * the machine's zone: every zone of ours is explicit) and the snapshot days it stores.
 */
const DATE_HEAVY = [
  'test/unit/calendar.test.ts',
  'test/unit/daily-schedule.test.ts',
  'test/unit/forecast.test.ts',
  'test/unit/api-call-projection.test.ts',
  'test/services/snapshots.service.test.ts',
  'test/jobs/usage-schedule.e2e.test.ts',
  'test/services/usage-schedule.service.test.ts',
];
const MACHINE_ZONES = ['Pacific/Kiritimati', 'Etc/GMT+12'];

/**
 * Files at a time. Most tests wait (on SQLite, the sandbox, timers, processes starting, a lease running out) more than
 * they compute: three keep two cores busy (vitest's default on two cores is one file at a time; four made a browser
 * test time out). The unit tier runs first, on its own: the rate-limit tests count requests within a second and fail
 * on a machine that a file starting replicas or Chromium beside them keeps busy. Then the services, HTTP and process
 * tiers run together, so that the long process files (replicas, the built app) start while the short files fill the
 * other workers.
 */
const WORKERS = 3;
/**
 * Process files at a time. Not more: with four, a replica's rolling restart under the load of the others lost a request
 * (ECONNRESET).
 */
const PROCESS_WORKERS = 3;

export default defineConfig({
  plugins: [singleGraphql],
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    /**
     * Files share the loaded code of their worker: importing the app's ~400 modules took seconds per file, more than
     * half of the in-process tiers' time. Each file still starts its own services, database and sandbox; what modules
     * keep for the process is the upstream limiter's windows (keyed by the upstream's URL, which carries each app's
     * port) and caches of constant data. Unit files keep their own modules: several test module-level state (the
     * limiters, the schema build) from a fresh start.
     */
    isolate: false,
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
    // The one build of the service that the process tier uses, started with the run (it is most of a cold first
    // process file's time).
    globalSetup: ['test/support/early-build.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT_TIER, isolate: true },
      },
      {
        extends: true,
        test: { name: 'services', include: SERVICE_TIER, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'http', include: HTTP_TIER, sequence: { groupOrder: 1 } },
      },
      ...MACHINE_ZONES.map((zone) => ({
        extends: true as const,
        test: { name: `TZ=${zone}`, include: DATE_HEAVY, env: { TZ: zone } },
      })),
      {
        extends: true,
        test: { name: 'processes', include: PROCESS_TIER, maxWorkers: PROCESS_WORKERS, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
