import type { JsonBody } from '../../support/json-body.js';

export interface GraphqlError {
  message: string;
  path?: Array<string | number>;
  locations?: Array<{ line: number; column: number }>;
  extensions?: { code?: string };
}

export interface GraphqlResponse<T = JsonBody> {
  status: number;
  headers: Headers;
  data?: T;
  errors?: GraphqlError[];
  text: string;
}

export interface GraphqlOptions {
  /** null sends no Authorization header; a string replaces the default key. */
  key?: string | null;
  headers?: Record<string, string>;
  operationName?: string;
}

/** POSTs operations to /graphql of the app under test, as a client with an API key would. */
export function createGraphql(baseUrl: string, defaultKey?: string) {
  return async function graphql<T = JsonBody>(
    query: string,
    variables?: Record<string, unknown>,
    options: GraphqlOptions = {},
  ): Promise<GraphqlResponse<T>> {
    const key = options.key === undefined ? defaultKey : options.key;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (key) headers.authorization ??= `Bearer ${key}`;
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables, operationName: options.operationName }),
    });
    const text = await response.text();
    const body = text.startsWith('{') ? (JSON.parse(text) as { data?: T; errors?: GraphqlError[] }) : {};
    return { status: response.status, headers: response.headers, data: body.data, errors: body.errors, text };
  };
}

export type Graphql = ReturnType<typeof createGraphql>;

/** The error codes of a response, in order. */
export const codesOf = (response: GraphqlResponse) => (response.errors ?? []).map((e) => e.extensions?.code);
