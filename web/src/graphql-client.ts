import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';

/**
 * Apollo Client on /graphql with the session cookie. Every request carries X-CSRF-Token (the session's, read when
 * the request is sent): the server needs it on cookie writes, and reads ignore it.
 */
export function createGraphqlClient(csrfToken: () => string | undefined): ApolloClient {
  const link = new HttpLink({
    uri: '/graphql',
    credentials: 'same-origin',
    fetch: (uri, init) => {
      const headers = new Headers(init?.headers);
      const token = csrfToken();
      if (token) headers.set('x-csrf-token', token);
      return fetch(uri, { ...init, headers });
    },
  });
  return new ApolloClient({ link, cache: new InMemoryCache() });
}
