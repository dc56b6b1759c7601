import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql, type GraphqlResponse } from './support/graphql-client.js';

/** Cost 100 × 100 × 4 pages of items: far over GRAPHQL_MAX_COST (10,000). */
const EXPENSIVE = 'usageBases(first: 100) { nodes { snapshots(first: 100) { nodes { date totals { recordCount } } } } }';
const aliases = (count: number) => Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ');

function expectRefused(res: GraphqlResponse, message: RegExp) {
  expect(res.status).toBe(400);
  expect(codesOf(res)).toEqual(['invalid_request']);
  expect(res.errors![0].message).toMatch(message);
  expect(res.data).toBeUndefined();
}

describe('document bounds (checked before validation)', () => {
  let app: TestApp;
  let graphql: Graphql;
  beforeAll(async () => {
    app = await startTestApp();
    graphql = createGraphql(app.url, app.apiKey);
  });
  afterAll(() => app.close());

  it('refuses more aliases than GRAPHQL_MAX_ALIASES (100), and runs a query at the bound', async () => {
    expectRefused(await graphql(`{ ${aliases(101)} }`), /^The query has 101 aliases; at most 100 are allowed$/);
    const atBound = await graphql(`{ ${aliases(100)} }`);
    expect(atBound.status).toBe(200);
    expect(Object.keys(atBound.data)).toHaveLength(100);
  });

  it('refuses a padded query that is over the cost limit with the padding the report used', async () => {
    expectRefused(await graphql(`{ ${EXPENSIVE} ${aliases(10_001)} }`), /^The query is 179013 bytes long; at most 65536 are allowed$/);
  });

  it('refuses a query longer than GRAPHQL_MAX_QUERY_BYTES or with more tokens than GRAPHQL_MAX_TOKENS', async () => {
    expectRefused(await graphql(`{ __typename ${' '.repeat(70_000)} }`), /^The query is 70015 bytes long; at most 65536 are allowed$/);
    expectRefused(await graphql(`{ ${'viewer { id } '.repeat(2_600)} }`), /^The query has more than 10000 tokens/);
  });

  it('refuses more fragment spreads than GRAPHQL_MAX_FRAGMENT_SPREADS (500)', async () => {
    const res = await graphql(`{ viewer { ${'...F '.repeat(501)} } } fragment F on Account { id }`);
    expectRefused(res, /^The query has 501 fragment spreads; at most 500 are allowed$/);
  });

  it('says what to change when graphql-js gives up validating repeated fields', async () => {
    const res = await graphql(`{ ${'__typename '.repeat(5_000)} }`);
    expectRefused(res, /repeats fields or fragment spreads too often/);
    expect(res.text).not.toContain('Validation aborted');
  });

  it('checks GET queries too', async () => {
    const res = await fetch(`${app.url}/graphql?query=${encodeURIComponent(`{ ${aliases(101)} }`)}`, {
      headers: { authorization: `Bearer ${app.apiKey}`, 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [{ message: 'The query has 101 aliases; at most 100 are allowed', extensions: { code: 'invalid_request' } }],
    });
  });
});

describe('input nesting (checked before anything recurses over it)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Bounds opened wide, so that only the nesting bound stands between the text and the parser.
    app = await startTestApp({ GRAPHQL_MAX_QUERY_BYTES: '1048576', GRAPHQL_MAX_TOKENS: '1000000' });
  });
  afterAll(() => app.close());

  /** Lists nested `depth` deep around 1, written out (JSON.stringify itself overflows the stack on such values). */
  const nestedList = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const VARIABLES_TOO_DEEP = 'Variables and extensions nest lists and objects more than 32 levels deep; at most 32 are allowed';

  async function send(init: RequestInit & { search?: string }) {
    const res = await fetch(`${app.url}/graphql${init.search ?? ''}`, {
      ...init,
      headers: {
        authorization: `Bearer ${app.apiKey}`,
        'content-type': 'application/json',
        'apollo-require-preflight': 'true',
        ...init.headers,
      },
    });
    return { status: res.status, body: (await res.json()) as { errors: Array<{ message: string }> } };
  }
  const refusal = (message: string) => ({ status: 400, body: { errors: [{ message, extensions: { code: 'invalid_request' } }] } });

  it('refuses variables nested 10,000 lists deep (POST) as invalid_request, not a 500', async () => {
    const body = `{"query":"query($n: Int) { usageBases(first: $n) { totalCount } }","variables":{"n":${nestedList(10_000)}}}`;
    expect(await send({ method: 'POST', body })).toEqual(refusal(VARIABLES_TOO_DEEP));
    const extensions = `{"query":"{ viewer { id } }","extensions":{"x":${nestedList(10_000)}}}`;
    expect(await send({ method: 'POST', body: extensions })).toEqual(refusal(VARIABLES_TOO_DEEP));
  });

  it('refuses deep variables on GET too, and takes them up to the bound', async () => {
    const query = encodeURIComponent('query($b: Boolean!) { viewer @include(if: $b) { id } }');
    const deep = `{"b":${nestedList(2_000)}}`;
    expect(
      await send({ method: 'GET', search: `?query=${query}&variables=${encodeURIComponent(deep)}`, headers: { 'content-type': '' } }),
    ).toEqual(refusal(VARIABLES_TOO_DEEP));
    // `variables` is the first level: a value 31 deep inside it is at the bound, and reaches graphql-js's coercion.
    const atBound = await send({ method: 'GET', search: `?query=${query}&variables=${encodeURIComponent(`{"b":${nestedList(31)}}`)}` });
    expect(atBound.status).toBe(400);
    expect(atBound.body.errors[0].message).toMatch(/^Variable "\$b" got invalid value \[\[/);
  });

  it('refuses argument values and selection sets nested deeper than the parser can take, before it parses them', async () => {
    const literal = await send({
      method: 'POST',
      body: JSON.stringify({ query: `{ usageBases(first: ${nestedList(10_000)}) { totalCount } }` }),
    });
    expect(literal).toEqual(
      refusal('The query nests lists and objects in argument values more than 32 levels deep; at most 32 are allowed'),
    );
    const objects = await send({
      method: 'POST',
      body: JSON.stringify({ query: `query($x: Int = ${'{a: '.repeat(40)}1${'}'.repeat(40)}) { __typename }` }),
    });
    expect(objects).toEqual(
      refusal('The query nests lists and objects in argument values more than 32 levels deep; at most 32 are allowed'),
    );
    const selections = await send({
      method: 'POST',
      body: JSON.stringify({ query: `{ ${'usageBases { nodes { '.repeat(2_000)} id ${'} } '.repeat(2_000)} }` }),
    });
    expect(selections).toEqual(refusal('The query nests selection sets more than 128 levels deep; at most 128 are allowed'));
  });
});

describe('the cost limit when the document bounds are opened wide', () => {
  let app: TestApp;
  let graphql: Graphql;
  beforeAll(async () => {
    app = await startTestApp({
      GRAPHQL_MAX_QUERY_BYTES: '1048576',
      GRAPHQL_MAX_TOKENS: '1000000',
      GRAPHQL_MAX_ALIASES: '100000',
    });
    graphql = createGraphql(app.url, app.apiKey);
  });
  afterAll(() => app.close());

  it('refuses a query the cost check cannot measure (over the complexity library node cap) instead of running it', async () => {
    const res = await graphql(`{ ${EXPENSIVE} ${aliases(10_001)} }`);
    expectRefused(res, /^Query refused: Query exceeds the maximum allowed number of nodes/);
    expect(res.text.length).toBeLessThan(1_000);
  });

  it('still runs a padded query the check can measure', async () => {
    const res = await graphql(`{ viewer { id } ${aliases(5_000)} }`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.data)).toHaveLength(5_001);
  });
});
