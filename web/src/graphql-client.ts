import { cacheExchange, Client, fetchExchange, mapExchange, subscriptionExchange } from '@urql/core';
import { createClient, type Client as SocketClient } from 'graphql-ws';
import { sessionEnded } from './session-end.js';

/**
 * urql (@urql/core: ~12 KB gzipped, where Apollo Client took ~55) on /graphql with the session cookie, its document
 * cache: a mutation's answer makes the shown queries holding its types ask again. Every request is a POST carrying
 * X-CSRF-Token (the session's, read when the request is sent): the server needs it on cookie writes, and reads
 * ignore it. Subscriptions go over graphql-ws on the same path, authenticated by the same cookie (the server checks
 * the page's Origin). A 401, an `unauthorized` error or the socket closed for the session (4403) ends the session in
 * the page (session-end.ts).
 */
export function createGraphqlClient(csrfToken: () => string | undefined): Client {
  const socket = liveSocket();
  return new Client({
    url: '/graphql',
    preferGetMethod: false,
    fetchOptions: (): RequestInit => {
      const token = csrfToken();
      const headers: Record<string, string> = token ? { 'x-csrf-token': token } : {};
      return { credentials: 'same-origin', headers };
    },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 401) sessionEnded();
      return response;
    },
    exchanges: [
      mapExchange({
        onError: (error) => void (error.graphQLErrors.some((e) => e.extensions?.code === 'unauthorized') && sessionEnded()),
      }),
      cacheExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: socket.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
      fetchExchange,
    ],
  });
}

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
const liveSocket = (): SocketClient =>
  createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: true,
    lazyCloseTimeout: 1_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    retryWait,
    shouldRetry: (event) => !closedForSession(event),
    on: { closed: (event) => void (closedForSession(event) && sessionEnded()) },
  });
