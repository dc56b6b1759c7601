import type { Request } from 'express';
import type { GraphQLSchema } from 'graphql';
import Negotiator from 'negotiator';
import type { GraphqlContext } from '../resolvers/context.js';
import type { CompiledExecutor } from './execution/executor.js';
import { Splices } from './execution/splices.js';
import { checkLimits, type OperationLimits } from './limits.js';
import type { PreparedQueries } from './prepared-queries.js';

/** A request's GraphQL parameters, when they are as simple as the fast path takes them. */
interface Parameters {
  query: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/** The fast path's answer to a request, to be written with status 200. */
export interface FastAnswer {
  contentType: string;
  chunks: Buffer[];
  context: GraphqlContext;
}

interface FastPathDeps {
  schema: GraphQLSchema;
  prepared: PreparedQueries;
  executor: CompiledExecutor;
  limits: OperationLimits;
}

/**
 * Runs a query Apollo has already validated once, without Apollo's request pipeline: its parse and validation cache,
 * plugin hooks, request contexts and header maps are a third of the time of a typical page. It answers only what it
 * can answer exactly as Apollo would (a query by POST or GET, no extensions, within the limits, without errors) and
 * leaves everything else to Apollo, which then answers as ever: a query that failed here runs again there, so its
 * errors are Apollo's. Mutations always go to Apollo: they must run once.
 */
export class GraphqlFastPath {
  /** Requests answered here since start. */
  answered = 0;

  constructor(private readonly deps: FastPathDeps) {}

  async answer(req: Request, createContext: () => GraphqlContext): Promise<FastAnswer | null> {
    const contentType = req.method === 'POST' || req.method === 'GET' ? responseTypeFor(req.method, req.headers.accept) : null;
    if (!contentType) return null;
    const parameters = req.method === 'POST' ? postParameters(req) : getParameters(req);
    if (!parameters) return null;
    const prepared = this.deps.prepared.get(parameters.query);
    const operation = prepared?.operation(parameters.operationName);
    if (!prepared || !operation || operation.operation !== 'query') return null;
    const { schema, executor, limits } = this.deps;
    const { document } = prepared;
    const { operationName, variables } = parameters;
    if (checkLimits({ schema, document, variables, operationName }, limits)) return null;

    const context = createContext();
    const splices = (context.splices = new Splices());
    const result = await executor.execute({ document, operation, operationName, variables, context, splices }).catch(() => null);
    if (!result || result.errors) return null;
    this.answered++;
    // As Apollo writes a result: its fields in the order errors, data, extensions, and a newline.
    return { contentType, chunks: splices.chunks(`${JSON.stringify({ data: result.data })}\n`), context };
  }
}

const PARAMETER_NAMES = new Set(['query', 'operationName', 'variables']);

/** A POST's JSON body, when it holds a query text and at most a name and variables (no extensions: APQ is Apollo's). */
function postParameters(req: Request): Parameters | null {
  const body = req.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  for (const name in body) if (!PARAMETER_NAMES.has(name)) return null;
  const { query, operationName, variables } = body;
  if (typeof query !== 'string') return null;
  if (operationName != null && typeof operationName !== 'string') return null;
  if (variables != null && !isRecord(variables)) return null;
  return { query, operationName: operationName ?? undefined, variables: variables ?? undefined };
}

/** A GET's query parameters, each given at most once, with no content type (Apollo refuses most). */
function getParameters(req: Request): Parameters | null {
  if (req.headers['content-type'] !== undefined) return null;
  const at = req.url.indexOf('?');
  const search = new URLSearchParams(at < 0 ? '' : req.url.slice(at + 1));
  for (const name of search.keys()) if (!PARAMETER_NAMES.has(name) || search.getAll(name).length > 1) return null;
  const query = search.get('query');
  if (query === null) return null;
  let variables: unknown;
  try {
    variables = JSON.parse(search.get('variables') ?? 'null');
  } catch {
    return null;
  }
  if (variables !== null && !isRecord(variables)) return null;
  return { query, operationName: search.get('operationName') ?? undefined, variables: variables ?? undefined };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// Apollo's media types (MEDIA_TYPES in @apollo/server), in the order it offers them.
const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
const JSON_CALLBACK_TYPE = 'application/json; callbackSpec=1.0; charset=utf-8';
const SINGLE_RESULT_TYPES = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE, JSON_CALLBACK_TYPE];
const LANDING_PAGE_CHOICES = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE, 'multipart/mixed; deferSpec=20220824', 'multipart/mixed; incrementalSpec=v0.2', 'multipart/mixed', 'text/html'];

/** Accept headers seen, with the content type Apollo would answer a single result with (null: leave it to Apollo). */
const responseTypes = new Map<string, string | null>();
const RESPONSE_TYPES_KEPT = 200;

/**
 * The content type of Apollo's answer to a single result (chooseContentTypeForSingleResultResponse), or null where
 * Apollo answers otherwise: no acceptable type (406), its landing page for a browser's GET, a JSON callback.
 */
function responseTypeFor(method: 'GET' | 'POST', accept: string | undefined): string | null {
  if (!accept) return JSON_TYPE;
  const key = `${method} ${accept}`;
  let type = responseTypes.get(key);
  if (type === undefined) {
    const negotiator = new Negotiator({ headers: { accept } });
    const prefersHtml = method === 'GET' && negotiator.mediaType(LANDING_PAGE_CHOICES) === 'text/html';
    const chosen = negotiator.mediaType(SINGLE_RESULT_TYPES);
    type = prefersHtml || chosen === undefined || chosen === JSON_CALLBACK_TYPE ? null : chosen;
    if (responseTypes.size >= RESPONSE_TYPES_KEPT) responseTypes.clear();
    responseTypes.set(key, type);
  }
  return type;
}
