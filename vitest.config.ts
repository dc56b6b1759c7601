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

export default defineConfig({
  plugins: [singleGraphql],
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
