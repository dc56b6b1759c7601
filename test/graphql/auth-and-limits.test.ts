import { Writable } from 'node:stream';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';

let app: TestApp;
let graphql: Graphql;
let logs = '';

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  app = await startTestApp({ LOG_LEVEL: 'warn' }, logStream);
  graphql = createGraphql(app.url, app.apiKey);
});
afterAll(() => app.close());

const UNAUTHORIZED = { errors: [{ message: 'Missing or invalid API key', extensions: { code: 'unauthorized' } }] };

describe('authentication', () => {
  it('answers 401 unauthorized to every operation without a valid key, introspection included', async () => {
    const { account, apiKey } = await app.running.services.accounts.create('revoked');
    const [key] = await app.running.services.accounts.listKeys(account.id);
    await app.running.services.accounts.revokeKey(key.id);
    const operations = [
      '{ viewer { id } }',
      '{ __schema { queryType { name } } }',
      '{ __typename }',
      getIntrospectionQuery(),
      'mutation { deleteUsageBase(input: { id: "x" }) { deletedUsageBaseId } }',
      'this is not graphql',
    ];
    for (const key of [null, 'sk_unknownunknownunknownunknownunknown12', apiKey, 'Basic abc']) {
      for (const query of operations) {
        const res = await graphql(query, undefined, { key: null, headers: key ? { authorization: key } : {} });
        expect(res.status, `${key} ${query.slice(0, 30)}`).toBe(401);
        expect(JSON.parse(res.text)).toEqual(UNAUTHORIZED);
      }
    }
    const get = await fetch(`${app.url}/graphql?query=${encodeURIComponent('{ viewer { id } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(401);
  });

  it('accepts the key as Bearer or bare, like REST', async () => {
    for (const authorization of [`Bearer ${app.apiKey}`, app.apiKey]) {
      const res = await graphql('{ viewer { restId } }', undefined, { key: null, headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.data.viewer.restId).toBe(app.accountId);
    }
  });

  it('lets a key holder introspect', async () => {
    const res = await graphql(getIntrospectionQuery());
    expect(res.status).toBe(200);
    expect(res.data.__schema.types.map((t: { name: string }) => t.name)).toContain('UsageBase');
  });

  it('shows Apollo Sandbox to a browser at GET /graphql, without a key', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('embeddable-sandbox');
    // Offline, the fallback Apollo shows until Sandbox covers it points to the IDE served from npm assets.
    expect(html).toMatch(/<div class="fallback">.*<a href="\/graphql\/ide\/">.*<\/div>/s);
  });
});

describe('introspection opened for development (GRAPHQL_INTROSPECTION=public)', () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await startTestApp({ GRAPHQL_INTROSPECTION: 'public' });
  });
  afterAll(() => open.close());

  it('answers introspection without a key, and nothing else', async () => {
    const anonymous = createGraphql(open.url);
    const schema = await anonymous(getIntrospectionQuery());
    expect(schema.status).toBe(200);
    expect(schema.data.__schema.queryType.name).toBe('Query');
    expect((await anonymous('{ viewer { id } }')).status).toBe(401);
    expect((await anonymous('{ __schema { queryType { name } } viewer { id } }')).status).toBe(401);
    expect((await anonymous('query A { __typename } query B { viewer { id } }', undefined, { operationName: 'B' })).status).toBe(401);
  });
});

describe('depth and cost limits', () => {
  it('rejects a query deeper than GRAPHQL_MAX_DEPTH (10) before running it', async () => {
    let selection = 'id';
    for (let i = 0; i < 6; i += 1) selection = `latestSnapshot { usageBase { ${selection} } }`;
    const res = await graphql(`{ usageBases { nodes { ${selection} } } }`);
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['invalid_request']);
    expect(res.errors![0].message).toMatch(/depth 15 exceeds the limit of 10/);
    expect(res.data).toBeUndefined();
  });

  it('rejects a query whose pages multiply beyond GRAPHQL_MAX_COST (10,000), and counts page sizes from variables', async () => {
    const query = 'query($n: Int) { usageBases(first: $n) { nodes { snapshots(first: $n) { nodes { date totals { recordCount } } } } } }';
    const expensive = await graphql(query, { n: 100 });
    expect(expensive.status).toBe(400);
    expect(codesOf(expensive)).toEqual(['invalid_request']);
    expect(expensive.errors![0].message).toMatch(/cost \d+ exceeds the limit of 10000/);
    const cheap = await graphql(query, { n: 5 });
    expect(cheap.status).toBe(200);
    expect(cheap.errors).toBeUndefined();
    // Verdicts are remembered per query text, by variables: the same text costs again what its variables make it.
    expect(codesOf(await graphql(query, { n: 100 }))).toEqual(['invalid_request']);
    expect((await graphql(query, { n: 5 })).errors).toBeUndefined();
  });

  // The report's 705 bytes, 52 spreads: walking a fragment again per spread measured 4^13 selections (5.8 s, ×4 per level).
  it('measures the depth of a fragment once however often it is spread, and refuses the query at once', { timeout: 5_000 }, async () => {
    let fragments = '';
    for (let level = 0; level < 13; level += 1) fragments += `fragment F${level} on Query { ${`...F${level + 1} `.repeat(4)}}\n`;
    const query = `query Spread { ...F0 }\n${fragments}fragment F13 on Query { viewer { id name } }\n`;
    expect(Buffer.byteLength(query)).toBeLessThan(1_000);
    const res = await graphql(query);
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['invalid_request']);
    expect(res.errors![0].message).toMatch(/^Query refused: Query exceeds the maximum allowed number of nodes/);
  });

  it('runs nothing of a rejected mutation', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    let selection = 'id';
    for (let i = 0; i < 6; i += 1) selection = `latestSnapshot { usageBase { ${selection} } }`;
    const res = await graphql(
      `mutation($id: ID!) { deleteUsageBase(input: { id: $id }) { deletedUsageBaseId } updateUsageBase(input: { id: $id }) { usageBase { ${selection} } } }`,
      {
        id: base.id,
      },
    );
    expect(res.status).toBe(400);
    expect((await app.http('GET', '/usage/bases')).body.bases.map((b: { id: string }) => b.id)).toEqual([base.id]);
  });
});

describe('errors', () => {
  it('answers request mistakes as invalid_request', async () => {
    for (const query of ['{ viewer { nope } }', '{ viewer {', '{ usageBase(id: 1) }']) {
      const res = await graphql(query);
      expect(res.status, query).toBe(400);
      expect(codesOf(res), query).toEqual(['invalid_request']);
    }
    const badVariable = await graphql('query($from: LocalDate) { usageBases { nodes { snapshots(from: $from) { nodes { date } } } } }', {
      from: '2026-02-30',
    });
    expect(codesOf(badVariable)).toEqual(['invalid_request']);
  });

  it('answers variable and operation-name errors with graphql-js’s own messages and locations, not the cost check’s', async () => {
    const query = 'query Pages($n: Int!) {\n  usageBases(first: $n) { totalCount }\n}';
    const wrongType = await graphql(query, { n: 'ten' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.errors).toEqual([
      {
        message: 'Variable "$n" got invalid value "ten"; Int cannot represent non-integer value: "ten"',
        locations: [{ line: 1, column: 13 }],
        extensions: { code: 'invalid_request' },
      },
    ]);
    const missing = await graphql(query, {});
    expect(missing.errors).toEqual([
      {
        message: 'Variable "$n" of required type "Int!" was not provided.',
        locations: [{ line: 1, column: 13 }],
        extensions: { code: 'invalid_request' },
      },
    ]);
    // Two operations and no name: graphql-js's message, though the first one's variables are missing too.
    const two = 'query A($n: Int!) { usageBases(first: $n) { totalCount } } query B { viewer { id } }';
    const unnamed = await graphql(two);
    expect(unnamed.status).toBe(400);
    expect(unnamed.errors).toEqual([
      { message: 'Must provide operation name if query contains multiple operations.', extensions: { code: 'invalid_request' } },
    ]);
    const unknown = await graphql(two, { n: 1 }, { operationName: 'C' });
    expect(unknown.errors).toEqual([{ message: 'Unknown operation named "C".', extensions: { code: 'invalid_request' } }]);
    expect((await graphql(two, undefined, { operationName: 'B' })).data).toEqual({ viewer: { id: expect.any(String) } });
  });

  it('masks unknown failures as internal, logging them without stack or SQL in the answer', async () => {
    const base = (await app.http('GET', '/usage/bases')).body.bases[0];
    await app.running.dataSource.query('ALTER TABLE usage_snapshot RENAME TO usage_snapshot_hidden');
    try {
      const res = await graphql('query($id: ID!) { usageBase(id: $id) { baseName latestSnapshot { date } } }', { id: base.id });
      expect(res.status).toBe(200);
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0]).toMatchObject({
        message: 'Internal server error',
        path: ['usageBase', 'latestSnapshot'],
        extensions: { code: 'internal' },
      });
      expect(res.data.usageBase).toEqual({ baseName: DEMO_BASES.catalog, latestSnapshot: null });
      expect(res.text).not.toMatch(/usage_snapshot|SQLITE|at .*\.js/);
    } finally {
      await app.running.dataSource.query('ALTER TABLE usage_snapshot_hidden RENAME TO usage_snapshot');
    }
    const line = logs.split('\n').find((l) => l.includes('GraphQL operation failed'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).err.message).toMatch(/no such table/);
    expect(line).not.toMatch(/"stack"|\bat .*\.(js|ts):\d+/);
  });
});
