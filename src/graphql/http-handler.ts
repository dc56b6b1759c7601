import { HeaderMap, type ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { Request, Response } from 'express';
import type { GraphQLError } from 'graphql';
import { FRAMING_ONLY_CSP } from '../rest/http/security-headers.js';
import type { GraphqlContext } from '../resolvers/context.js';
import type { DocumentGuard } from './document-bounds.js';
import { Splices } from './execution/splices.js';
import { parameterNestingError } from './input-nesting.js';
import type { GraphqlFastPath } from './fast-path.js';
import type { GraphqlResponseCache } from './response-cache.js';

/** Tells the HTTP handler which responses may be kept: queries without errors. */
export function responseCachePlugin(): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, operation, response }) {
          if (operation?.operation === 'query' && response.body.kind === 'single' && !response.body.singleResult.errors) {
            contextValue.reuse.answeredQuery = true;
          }
        },
      };
    },
  };
}

interface HandlerDeps {
  apollo: ApolloServer<GraphqlContext>;
  createContext: (res: Response) => GraphqlContext;
  cache: GraphqlResponseCache | undefined;
  guard: DocumentGuard;
  fastPath: GraphqlFastPath;
}

/**
 * /graphql over Express, as @as-integrations/express5 does it, with the response cache in front (a request the cache
 * holds for the current database version is answered without running anything) and the fast path next (a query
 * Apollo validated before runs without Apollo's pipeline).
 */
export function graphqlHttpHandler({ apollo, createContext, cache, guard, fastPath }: HandlerDeps) {
  return async (req: Request, res: Response) => {
    const search = new URL(req.url, 'http://localhost').search;
    // Before anything below (the cache key, the fast path, Apollo, the limits) walks the values recursively.
    const tooDeep = parameterNestingError(req.method === 'GET' ? jsonParametersOf(search) : req.body);
    if (tooDeep) return refuse(res, tooDeep);
    const accountId = (res.locals.account as { id: string } | undefined)?.id;
    const key = cache && accountId ? cache.keyOf(req, accountId) : null;
    const version = cache && key ? cache.version() : null;
    const hit = cache && key && version ? cache.get(key, version) : undefined;
    if (hit) return hit.send(req, res);

    const fast = await fastPath.answer(req, () => createContext(res));
    if (fast) {
      if (cache && key && version && !fast.context.reuse.readsOutsideDatabase && cache.version() === version) {
        return cache.set(key, version, Buffer.concat(fast.chunks), fast.contentType).send(req, res);
      }
      return sendChunks(res, 200, fast.contentType, fast.chunks);
    }

    const { query, operationName } = textParametersOf(req, search);
    const refusal = query === undefined ? undefined : guard.refusal(query, operationName);
    if (refusal) return refuse(res, refusal);

    let context: GraphqlContext | undefined;
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers: headersOf(req), search, body: req.body },
      context: async () => {
        context = createContext(res);
        context.splices = new Splices();
        return context;
      },
    });
    const status = response.status ?? 200;
    const reusable = status === 200 && context?.reuse.answeredQuery === true && !context.reuse.readsOutsideDatabase;
    // A write while it ran may have mixed two states into the answer: it is kept only if the version did not move.
    if (cache && key && version && reusable && response.body.kind === 'complete' && cache.version() === version) {
      const contentType = response.headers.get('content-type') ?? 'application/json; charset=utf-8';
      return cache.set(key, version, Buffer.concat(chunksOf(response.body.string, context)), contentType).send(req, res);
    }

    for (const [name, value] of response.headers) res.setHeader(name, value);
    // Apollo's landing page brings its own policy in a <meta> (with a nonce); the header adds what a <meta> cannot.
    if (response.headers.get('content-type')?.startsWith('text/html')) res.setHeader('Content-Security-Policy', FRAMING_ONLY_CSP);
    if (response.body.kind === 'complete') return sendChunks(res, status, undefined, chunksOf(response.body.string, context));
    res.statusCode = status;
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

/** Apollo's body as bytes, with the texts the executor spliced in (execution/splices.ts). */
function chunksOf(text: string, context: GraphqlContext | undefined): Buffer[] {
  return context?.splices?.used ? context.splices.chunks(text) : [Buffer.from(text)];
}

/** Bodies up to this size are joined before writing: one small copy costs less than a write of many pieces. */
const JOIN_BELOW_BYTES = 64 * 1024;

/**
 * Writes a body given in chunks with its length, in one write: the spliced rows of a large body go to the socket as
 * they are, where joining them first would copy the whole body once more.
 */
function sendChunks(res: Response, status: number, contentType: string | undefined, chunks: Buffer[]): void {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  res.statusCode = status;
  if (contentType) res.setHeader('content-type', contentType);
  res.setHeader('content-length', length);
  if (res.req.method === 'HEAD') return void res.end();
  if (chunks.length > 1 && length < JOIN_BELOW_BYTES) return void res.end(Buffer.concat(chunks, length));
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
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

const refuse = (res: Response, error: GraphQLError) => void res.status(400).json({ errors: [{ message: error.message, extensions: { code: 'invalid_request' } }] });

function headersOf(req: Request): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
