import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { recordingFetch, type SentRequest } from './support/recording-fetch.js';

let app: TestApp;
let logs = '';

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  app = await startTestApp({ LOG_LEVEL: 'warn' }, logStream);
});
afterAll(() => app.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string, version = 1) => ({ persistedQuery: { version, sha256Hash: hash } });

const post = (body: unknown) =>
  fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('automatic persisted queries over HTTP', () => {
  it('answers an unknown hash with Apollo’s PERSISTED_QUERY_NOT_FOUND, by POST and by GET', async () => {
    const unknown = sha256('{ viewer { id } } # never sent');
    const expected = { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] };
    const byPost = await post({ extensions: persisted(unknown) });
    expect(byPost.status).toBe(200);
    expect(await byPost.json()).toEqual(expected);
    const byGet = await fetch(`${app.url}/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted(unknown)))}`, {
      headers: { authorization: `Bearer ${app.apiKey}` },
    });
    expect(byGet.status).toBe(200);
    expect(await byGet.json()).toEqual(expected);
  });

  it('refuses a hash that is not its query’s as a 400 client error, and logs no failure of ours', async () => {
    const res = await post({ query: '{ viewer { id } }', extensions: persisted(sha256('{ viewer { name } }')) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: 'The persistedQuery extension’s sha256Hash is not the SHA-256 of the query sent with it',
          extensions: { code: 'invalid_request' },
        },
      ],
    });
    const version = await post({ query: '{ viewer { id } }', extensions: persisted(sha256('{ viewer { id } }'), 2) });
    expect(version.status).toBe(400);
    expect(((await version.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('invalid_request');
    expect(logs).not.toContain('GraphQL operation failed');
  });

  it('registers a query sent with its hash, then runs it by hash alone', async () => {
    const query = '{ viewer { restId } }';
    expect((await post({ extensions: persisted(sha256(query)) })).status).toBe(200);
    expect(await (await post({ query, extensions: persisted(sha256(query)) })).json()).toEqual({
      data: { viewer: { restId: app.accountId } },
    });
    expect(await (await post({ extensions: persisted(sha256(query)) })).json()).toEqual({ data: { viewer: { restId: app.accountId } } });
  });
});

describe('Apollo Client 4’s persisted-query link', () => {
  const VIEWER = gql`
    query ViewerName {
      viewer {
        restId
        name
      }
    }
  `;
  const clientWith = (options: { useGETForHashedQueries?: boolean }) => {
    const { fetch, sent } = recordingFetch();
    const link = ApolloLink.from([
      new PersistedQueryLink({ sha256, ...options }),
      new HttpLink({ uri: `${app.url}/graphql`, headers: { authorization: `Bearer ${app.apiKey}` }, fetch }),
    ]);
    return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
  };
  const shapeOf = (request: SentRequest) => {
    const params = request.method === 'GET' ? Object.fromEntries(new URL(request.url).searchParams) : JSON.parse(request.body!);
    return {
      method: request.method,
      hasQuery: typeof params.query === 'string',
      hasHash: String(params.extensions).includes('sha256') || Boolean(params.extensions?.persistedQuery),
    };
  };
  const expected = () => ({ viewer: { __typename: 'Account', restId: app.accountId, name: 'first' } });

  it('POST: not found → sends the query → later calls by hash only', async () => {
    const { client, sent } = clientWith({});
    expect((await client.query({ query: VIEWER, fetchPolicy: 'network-only' })).data).toEqual(expected());
    expect((await client.query({ query: VIEWER, fetchPolicy: 'network-only' })).data).toEqual(expected());
    expect(sent.map(shapeOf)).toEqual([
      { method: 'POST', hasQuery: false, hasHash: true },
      { method: 'POST', hasQuery: true, hasHash: true },
      { method: 'POST', hasQuery: false, hasHash: true },
    ]);
  });

  it('GET for hashed queries (useGETForHashedQueries): the same dance, the hashes sent by GET', async () => {
    const { client, sent } = clientWith({ useGETForHashedQueries: true });
    const query = gql`
      query ViewerId {
        viewer {
          id
        }
      }
    `;
    await client.query({ query, fetchPolicy: 'network-only' });
    const { data } = await client.query({ query, fetchPolicy: 'network-only' });
    expect(data).toEqual({ viewer: { __typename: 'Account', id: expect.any(String) } });
    expect(sent.map(shapeOf)).toEqual([
      { method: 'GET', hasQuery: false, hasHash: true },
      { method: 'POST', hasQuery: true, hasHash: true },
      { method: 'GET', hasQuery: false, hasHash: true },
    ]);
  });
});
