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

export default defineConfig({
  plugins: [singleGraphql],
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'] } },
      ...MACHINE_ZONES.map((zone) => ({ extends: true as const, test: { name: `TZ=${zone}`, include: DATE_HEAVY, env: { TZ: zone } } })),
    ],
  },
});
