import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';

const GQL_TADA = join(ROOT, 'node_modules/gql.tada/bin/cli.js');
const COMMITTED = join(ROOT, 'web/src/graphql-env.d.ts');

describe('web/src/graphql-env.d.ts', () => {
  it('is what gql.tada writes from schema.graphql (run `npm run web:codegen` after changing the schema)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'graphql-env-'));
    try {
      const output = join(dir, 'graphql-env.d.ts');
      await promisify(execFile)(
        process.execPath,
        [GQL_TADA, 'generate', 'output', '--tsconfig', join(ROOT, 'web/tsconfig.json'), '--output', output],
        { cwd: ROOT },
      );
      expect(await readFile(COMMITTED, 'utf8')).toBe(await readFile(output, 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
