import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql } from './support/graphql-client.js';
import { pastDays, recordDays } from './support/shapes.js';

let app: TestApp;
/** SQL statements the app's DataSource ran, as TypeORM announces them. */
let statements: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  app.running.dataSource.subscribers.push({ beforeQuery: (event) => void statements.push(event.query) });
}, 120_000);
afterAll(() => app.close());

/** An account tracking `count` bases, each with a few counted days. */
async function accountWithBases(count: number) {
  const account = await app.newAccount(`${count} bases`);
  for (let i = 0; i < count; i += 1) {
    const upstream = app.running.sandbox!.store.addBase({ name: `Base ${count}-${i}`, tables: [] });
    const created = await account.http('POST', '/usage/bases', { body: { baseId: upstream.id } });
    expect(created.status).toBe(201);
    await recordDays(app, created.body.base.id, pastDays(3));
  }
  return createGraphql(app.url, account.apiKey);
}

const QUERY = `{ usageBases(first: 100) { edges { cursor node { id restId baseName
  latestSnapshot { id date totals { recordCount storageBytes } tables { tableId recordCount } usageBase { restId } } } } } }`;

async function statementsFor(graphql: ReturnType<typeof createGraphql>) {
  await graphql('{ viewer { id } }');
  statements = [];
  const res = await graphql(QUERY);
  expect(res.errors).toBeUndefined();
  return { bases: res.data.usageBases.edges.length, statements: [...statements] };
}

describe('DataLoaders', () => {
  it('answers 100 bases with their latest snapshots in as many SQL statements as 2 bases', async () => {
    const few = await statementsFor(await accountWithBases(2));
    const many = await statementsFor(await accountWithBases(100));
    expect(few.bases).toBe(2);
    expect(many.bases).toBe(100);
    expect(many.statements.length).toBe(few.statements.length);
    expect(many.statements.length).toBeLessThanOrEqual(4);
  }, 120_000);
});
