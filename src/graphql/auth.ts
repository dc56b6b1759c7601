import type { NextFunction, Request, Response } from 'express';
import { Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { Config } from '../config.js';

/**
 * /graphql answers nothing without a valid API key: every operation, introspection included, gets `unauthorized`
 * with HTTP 401 before Apollo sees it. Two exceptions: a browser's GET for the landing page (it cannot send the
 * header), and introspection alone when GRAPHQL_INTROSPECTION=public. The account comes from the app's
 * `authenticate` middleware (res.locals.account), so REST and GraphQL read keys the same way.
 */
export function requireApiKey(introspection: Config['graphql']['introspection']) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.account) return next();
    if (req.method === 'GET' && prefersHtml(req)) return next();
    if (introspection === 'public' && isIntrospectionOnly(queryOf(req), operationNameOf(req))) return next();
    res.status(401).json({ errors: [{ message: 'Missing or invalid API key', extensions: { code: 'unauthorized' } }] });
  };
}

function prefersHtml(req: Request): boolean {
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

function queryOf(req: Request): unknown {
  return req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
}

function operationNameOf(req: Request): unknown {
  return req.method === 'GET' ? req.query.operationName : (req.body as { operationName?: unknown } | undefined)?.operationName;
}

/** True when the operation to run is a query that selects only __schema, __type and __typename. */
export function isIntrospectionOnly(query: unknown, operationName: unknown): boolean {
  if (typeof query !== 'string') return false;
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return false;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (operation?.operation !== 'query' || (typeof operationName !== 'string' && operations.length > 1)) return false;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const onlyMeta = (set: SelectionSetNode, seen: Set<string>): boolean =>
    set.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__');
      if (selection.kind === Kind.INLINE_FRAGMENT) return onlyMeta(selection.selectionSet, seen);
      const fragment = fragments.get(selection.name.value);
      if (!fragment || seen.has(selection.name.value)) return false;
      return onlyMeta(fragment, new Set([...seen, selection.name.value]));
    });
  return onlyMeta(operation.selectionSet, new Set());
}
