import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient, type Client } from 'graphql-ws';
import { sessionEnded } from './session-end.js';

/**
 * Apollo Client on /graphql with the session cookie. Every request carries X-CSRF-Token (the session's, read when
 * the request is sent): the server needs it on cookie writes, and reads ignore it. Subscriptions go over graphql-ws
 * on the same path, authenticated by the same cookie (the server checks the page's Origin). A 401, an
 * `unauthorized` error or the socket closed for the session (4403) ends the session in the page (session-end.ts).
 */
export function createGraphqlClient(csrfToken: () => string | undefined): ApolloClient {
  const http = new HttpLink({
    uri: '/graphql',
    credentials: 'same-origin',
    fetch: async (uri, init) => {
      const headers = new Headers(init?.headers);
      const token = csrfToken();
      if (token) headers.set('x-csrf-token', token);
      const response = await fetch(uri, { ...init, headers });
      if (response.status === 401) sessionEnded();
      return response;
    },
  });
  const unauthorized = new ErrorLink(({ error }) => {
    if (CombinedGraphQLErrors.is(error) && error.errors.some((e) => e.extensions?.code === 'unauthorized')) sessionEnded();
  });
  const link = ApolloLink.from([unauthorized, ApolloLink.split(isSubscription, new GraphQLWsLink(liveSocket()), http)]);
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

const isSubscription = ({ query }: ApolloLink.Operation) => {
  const definition = getMainDefinition(query);
  return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
};

/** Backoff between reconnections: 1 s doubling, at most half a minute (plus jitter so tabs do not reconnect at once). */
const retryWait = (retries: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.min(1_000 * 2 ** retries, 30_000) + Math.random() * 1_000));

/** The server closes a socket whose key or session is no longer good with 4403 (src/graphql/socket-access.ts). */
const FORBIDDEN_CLOSE = 4403;
const closedForSession = (event: unknown) => event instanceof CloseEvent && event.code === FORBIDDEN_CLOSE;

/**
 * The socket opens with a page's first subscription and closes a moment after its last (lazy); a dropped one is
 * opened again for as long as the page is open, unless the server refused the session (4403: signed out elsewhere),
 * which sends the person to sign-in.
 */
const liveSocket = (): Client =>
  createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: true,
    lazyCloseTimeout: 1_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    retryWait,
    shouldRetry: (event) => !closedForSession(event),
    on: { closed: (event) => void (closedForSession(event) && sessionEnded()) },
  });
