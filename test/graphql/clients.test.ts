import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { recordingFetch } from './support/recording-fetch.js';

/**
 * Mainstream clients with their default settings, from Node, with an API key: the only thing set is the endpoint and
 * the Authorization header. None sends Apollo's preflight-forcing headers.
 */
let app: TestApp;
let endpoint: string;
let authorization: string;

beforeAll(async () => {
  app = await startTestApp();
  endpoint = `${app.url}/graphql`;
  authorization = `Bearer ${app.apiKey}`;
});
afterAll(() => app.close());

/** The answer of a viewer query, as read from a raw response. */
type ViewerAnswer = { data: { viewer: { restId?: string; name?: string } } };

const VIEWER = 'query Viewer { viewer { restId name } }';
const MISSING_DELETE = 'mutation Delete($id: ID!) { deleteUsageBase(input: { id: $id, clientMutationId: "m1" }) { clientMutationId } }';

describe('urql (@urql/core 6) with its defaults', () => {
  it('sends queries as GET without a content type, and they are answered', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new Client({
      url: endpoint,
      exchanges: [cacheExchange, fetchExchange],
      fetch,
      fetchOptions: { headers: { authorization } },
    });
    const result = await client.query(VIEWER, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual({ viewer: { __typename: 'Account', restId: app.accountId, name: 'first' } });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'GET', contentType: null });
  });

  it('sends mutations as JSON POSTs, which reach the resolver', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new Client({
      url: endpoint,
      exchanges: [cacheExchange, fetchExchange],
      fetch,
      fetchOptions: { headers: { authorization } },
    });
    const result = await client.mutation(MISSING_DELETE, { id: '00000000-0000-4000-8000-000000000000' }).toPromise();
    expect(sent[0].method).toBe('POST');
    expect(result.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(['not_found']);
  });
});

describe('Apollo Client 4 with its defaults', () => {
  it('runs a query and reports a resolver error with our code', async () => {
    const client = new ApolloClient({ link: new HttpLink({ uri: endpoint, headers: { authorization } }), cache: new InMemoryCache() });
    const { data } = await client.query({ query: gql(VIEWER) });
    expect(data).toEqual({ viewer: { __typename: 'Account', restId: app.accountId, name: 'first' } });
    const { error } = await client.mutate({
      mutation: gql(MISSING_DELETE),
      variables: { id: '00000000-0000-4000-8000-000000000000' },
      errorPolicy: 'all',
    });
    expect((error as { errors?: { extensions?: { code?: string } }[] }).errors?.map((e) => e.extensions?.code)).toEqual(['not_found']);
  });
});

describe('graphql-request 7 with its defaults', () => {
  it('runs a query', async () => {
    const client = new GraphQLClient(endpoint, { headers: { authorization } });
    expect(await client.request(VIEWER)).toEqual({ viewer: { restId: app.accountId, name: 'first' } });
  });
});

describe('plain fetch', () => {
  it('runs a GET with the query in the URL and only the Authorization header', async () => {
    const res = await fetch(`${endpoint}?query=${encodeURIComponent(VIEWER)}`, { headers: { authorization } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { viewer: { restId: app.accountId, name: 'first' } } });
  });

  it('runs a POST as Relay’s documented network layer sends it', async () => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: VIEWER, variables: {} }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as ViewerAnswer).data.viewer.restId).toBe(app.accountId);
  });

  it('answers a repeated GET query each time for the account asking', async () => {
    const url = `${endpoint}?query=${encodeURIComponent('{ viewer { id name } }')}`;
    const first = await fetch(url, { headers: { authorization } });
    const again = await fetch(url, { headers: { authorization } });
    expect(await again.json()).toEqual(await first.json());
    // Another account's identical GET gets its own answer.
    const other = await fetch(url, { headers: { authorization: `Bearer ${app.other.apiKey}` } });
    expect(((await other.json()) as ViewerAnswer).data.viewer.name).toBe('other');
  });

  it('refuses a GET without a key as before (401), whatever the headers', async () => {
    const res = await fetch(`${endpoint}?query=${encodeURIComponent(VIEWER)}`);
    expect(res.status).toBe(401);
  });
});
