import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { builtServiceMain } from '../support/built-service.js';
import { startBuiltService } from '../support/processes.js';
import { codesOf, createGraphql } from './support/graphql-client.js';

let main: string;
const dataDir = mkdtempSync(join(tmpdir(), 'basewatch-graphql-built-'));

beforeAll(async () => {
  main = await builtServiceMain();
}, 180_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('GraphQL in the built service (plain node: decorators, import cycles, one graphql copy)', () => {
  it('answers queries, applies limits, serves the IDE, and leaves SIGTERM to the service', async () => {
    const apiKey = generateApiKey();
    const { child, url, exited } = await startBuiltService(
      { BOOTSTRAP_API_KEY: apiKey, DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}` },
      main,
    );
    const graphql = createGraphql(url, apiKey);
    const res = await graphql('{ viewer { name } airtableBases { restId } usageBases(last: 5) { nodes { id } pageInfo { hasNextPage } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.viewer.name).toBe('bootstrap');
    expect(res.data.airtableBases.length).toBeGreaterThan(0);
    const costly = await graphql('{ usageBases(first: 100) { nodes { snapshots(first: 100) { nodes { date } } } } }');
    expect(codesOf(costly)).toEqual(['invalid_request']);
    expect((await fetch(`${url}/graphql/ide/`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
