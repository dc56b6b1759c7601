import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { Request, Response } from 'express';
import type { GraphQLError } from 'graphql';
import { FRAMING_ONLY_CSP } from '../http/security-headers.js';
import type { GraphqlContext } from '../resolvers/context.js';
import type { DocumentGuard } from './document-bounds.js';
import { parameterNestingError } from './input-nesting.js';

interface HandlerDeps {
  apollo: ApolloServer<GraphqlContext>;
  createContext: (res: Response) => GraphqlContext;
  guard: DocumentGuard;
}

/** /graphql over Express, as @as-integrations/express5 does it, after the document's size bounds (document-bounds.ts). */
export function graphqlHttpHandler({ apollo, createContext, guard }: HandlerDeps) {
  return async (req: Request, res: Response) => {
    const search = new URL(req.url, 'http://localhost').search;
    // Before anything below (Apollo, the limits) walks the values recursively.
    const tooDeep = parameterNestingError(req.method === 'GET' ? jsonParametersOf(search) : req.body);
    if (tooDeep) return refuse(res, tooDeep);
    const { query, operationName } = textParametersOf(req, search);
    const refusal = query === undefined ? undefined : guard.refusal(query, operationName);
    if (refusal) return refuse(res, refusal);

    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers: headersOf(req), search, body: req.body },
      context: async () => createContext(res),
    });
    for (const [name, value] of response.headers) res.setHeader(name, value);
    res.statusCode = response.status ?? 200;
    // Apollo's landing page brings its own policy in a <meta> (with a nonce); the header adds what a <meta> cannot.
    if (response.headers.get('content-type')?.startsWith('text/html')) res.setHeader('Content-Security-Policy', FRAMING_ONLY_CSP);
    if (response.body.kind === 'complete') return void res.end(response.body.string);
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

/** The query text and operation name as Apollo will read them: the JSON body's on POST, the parameters on GET. */
function textParametersOf(req: Request, search: string): { query?: string; operationName?: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  if (req.method === 'GET') {
    const parameters = new URLSearchParams(search);
    return { query: text(parameters.get('query')), operationName: text(parameters.get('operationName')) };
  }
  const body = req.body as { query?: unknown; operationName?: unknown } | undefined;
  return { query: text(body?.query), operationName: text(body?.operationName) };
}

/** A GET's `variables` and `extensions` parameters, parsed (what does not parse is Apollo's to refuse). */
function jsonParametersOf(search: string): Record<string, unknown> {
  const parameters = new URLSearchParams(search);
  const parsed: Record<string, unknown> = {};
  for (const name of ['variables', 'extensions']) {
    const text = parameters.get(name);
    if (!text) continue;
    try {
      parsed[name] = JSON.parse(text);
    } catch {
      // Left to Apollo.
    }
  }
  return parsed;
}

const refuse = (res: Response, error: GraphQLError) =>
  void res.status(400).json({ errors: [{ message: error.message, extensions: { code: 'invalid_request' } }] });

function headersOf(req: Request): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
