import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges, sampleChange } from '../support/change-entries.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let config: { id: string };

const change = (i: number) => sampleChange(i);

beforeAll(async () => {
  // Without the response cache: every request is executed, the repeated ones by the fast path.
  app = await startTestApp({ GRAPHQL_RESPONSE_CACHE_MB: '0', GRAPHQL_MAX_COST: '1000' });
  const res = await app.http('POST', '/monitoring-config', {
    body: { baseId: await upstreamBaseId(app.http, DEMO_BASES.catalog), monitoringBaseId: await upstreamBaseId(app.http, DEMO_BASES.changeLog) },
  });
  config = res.body.config;
  await appendChanges(app.running.services.dataSource, config.id, [1, 2, 3, 4, 5].map(change));
}, 60_000);
afterAll(() => app?.close());

const CHANGES = `query Changes($id: ID!, $first: Int) { monitoringConfig(id: $id) { changes(first: $first) {
  totalCount edges { cursor node { restId eventType occurredAt before after } } pageInfo { hasNextPage endCursor } } } }
query Name { viewer { name } }`;
/** The same operations in a text of their own (a comment differs), so that each test starts with a text Apollo has not seen. */
const changesText = (test: string) => `${CHANGES}\n# ${test}`;

interface Sent {
  status: number;
  contentType: string | null;
  body: string;
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
}

async function get(params: Record<string, string>, headers: Record<string, string> = {}): Promise<Sent> {
  const res = await fetch(`${app.url}/graphql?${new URLSearchParams(params)}`, { headers: { authorization: `Bearer ${app.apiKey}`, ...headers } });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
}

const fastAnswers = () => app.running.graphql!.fastPathAnswers();

/** Sends a request three times: Apollo answers the first (and prepares its text), the fast path the others if it may. */
async function thrice(send: () => Promise<Sent>) {
  const before = fastAnswers();
  const answers = [await send(), await send(), await send()];
  return { answers, fast: fastAnswers() - before };
}

describe('the fast path for queries Apollo validated before', () => {
  it('answers a repeated query with the same status, content type and bytes as Apollo', async () => {
    const variables = { id: config.id, first: 2 };
    const { answers, fast } = await thrice(() => post({ query: changesText('bytes'), operationName: 'Changes', variables }));
    expect(fast).toBe(2);
    expect(answers[0].status).toBe(200);
    expect(answers[0].contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answers[0].body).data.monitoringConfig.changes.edges).toHaveLength(2);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('negotiates the content type as Apollo does, and leaves an unacceptable Accept to Apollo’s 406', async () => {
    const body = { query: changesText('accept'), operationName: 'Name' };
    const graphqlResponse = await thrice(() => post(body, { accept: 'application/graphql-response+json' }));
    expect(graphqlResponse.fast).toBe(2);
    expect(graphqlResponse.answers.map((answer) => answer.contentType)).toEqual(Array(3).fill('application/graphql-response+json; charset=utf-8'));
    const refused = await thrice(() => post(body, { accept: 'text/plain' }));
    expect(refused.fast).toBe(0);
    expect(refused.answers.map((answer) => answer.status)).toEqual([406, 406, 406]);
  });

  it('serves GET with query parameters, and leaves a browser’s GET to Apollo’s landing page', async () => {
    const params = { query: changesText('get'), operationName: 'Changes', variables: JSON.stringify({ id: config.id }) };
    const { answers, fast } = await thrice(() => get(params));
    expect(fast).toBe(2);
    expect(JSON.parse(answers[0].body).data.monitoringConfig.changes.totalCount).toBe(5);
    expect(answers[2]).toEqual(answers[0]);
    const page = await thrice(() => get(params, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }));
    expect(page.fast).toBe(0);
    expect(page.answers[2].contentType).toMatch(/^text\/html/);
  });

  it('leaves errors to Apollo: the answer is Apollo’s each time', async () => {
    const missing = { query: changesText('errors'), operationName: 'Changes', variables: { id: '00000000-0000-4000-8000-000000000000', first: 2 } };
    const { answers, fast } = await thrice(() => post(missing));
    expect(fast).toBe(0);
    expect(JSON.parse(answers[0].body).errors[0].extensions.code).toBe('not_found');
    expect(answers[2]).toEqual(answers[0]);
    // Variables that do not coerce, an operation the document lacks: refused as on the first request.
    const badVariables = await thrice(() => post({ query: changesText('errors'), operationName: 'Changes', variables: { id: config.id, first: 'many' } }));
    expect(badVariables.fast).toBe(0);
    expect(badVariables.answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    const unknown = await thrice(() => post({ query: changesText('errors'), operationName: 'Nope' }));
    expect(unknown.fast).toBe(0);
    expect(unknown.answers[2]).toEqual(unknown.answers[0]);
  });

  it('applies the cost limit to each request’s own variables', async () => {
    const query = changesText('limits');
    const within = await thrice(() => post({ query, operationName: 'Changes', variables: { id: config.id, first: 3 } }));
    expect(within.fast).toBe(2);
    // The same text, now with a page size whose cost is over GRAPHQL_MAX_COST.
    const over = await thrice(() => post({ query, operationName: 'Changes', variables: { id: config.id, first: 100 } }));
    expect(over.fast).toBe(0);
    expect(over.answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(JSON.parse(over.answers[0].body).errors[0].message).toMatch(/^Query cost \d+ exceeds the limit of 1000$/);
  });

  it('runs a repeated mutation once per request', async () => {
    const create = `mutation Create($name: String!) { createApiKey(input: { name: $name }) { apiKey { name } } }`;
    const { answers, fast } = await thrice(() => post({ query: create, variables: { name: 'fast path' } }));
    expect(fast).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const keys = await post({ query: '{ viewer { apiKeys(first: 100) { edges { node { name } } } } }' });
    const names = JSON.parse(keys.body).data.viewer.apiKeys.edges.map((edge: { node: { name: string } }) => edge.node.name);
    expect(names.filter((name: string) => name === 'fast path')).toHaveLength(3);
  });

  it('leaves requests with extensions (persisted queries) to Apollo', async () => {
    const { fast } = await thrice(() => post({ query: changesText('extensions'), operationName: 'Name', extensions: { something: true } }));
    expect(fast).toBe(0);
  });
});
