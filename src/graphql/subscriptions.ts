import type { Server } from 'node:http';
import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { parseAuthorizationHeader } from '../auth/api-key.js';
import { createContext } from '../resolvers/context.js';
import type { EventHub } from '../resolvers/support/event-hub.js';
import type { AccountSummary } from '../services/account.service.js';
import type { Services } from '../services.js';
import { checkDocument, type DocumentBounds } from './document-bounds.js';
import { requestErrorMessage, type ErrorFormatter } from './errors.js';
import { checkLimits, type OperationLimits } from './limits.js';

export interface SubscriptionServer {
  /** Closes every socket (1001 going away) and stops accepting new ones. */
  close(): Promise<void>;
}

interface Options {
  schema: GraphQLSchema;
  services: Services;
  events: EventHub;
  limits: OperationLimits;
  bounds: DocumentBounds;
  format: ErrorFormatter;
}

/**
 * graphql-ws on the HTTP server's port at /graphql. The connection is authenticated once, by the API key in
 * `connectionParams` (`{ "authorization": "Bearer sk_…" }` or the bare key); a socket without a valid key is closed
 * with 4403. Operations get the same validation, limits, context and error shaping as over HTTP.
 */
export function serveSubscriptions(server: Server, { schema, services, events, limits, bounds, format }: Options): SubscriptionServer {
  const sockets = new WebSocketServer({ server, path: '/graphql' });
  const toFormatted = (error: GraphQLError) =>
    !error.path && !error.originalError ? requestError(error).toJSON() : format(error.toJSON(), error);
  const disposable = useServer<Record<string, unknown>, { account: AccountSummary }>(
    {
      onConnect: async (ctx) => {
        const key = parseAuthorizationHeader(keyParam(ctx.connectionParams));
        const caller = key ? await services.accounts.authenticate(key) : null;
        if (!caller) return false;
        ctx.extra.account = caller.account;
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        const checked = checkDocument(payload.query, bounds);
        if (checked.error) return [requestError(checked.error)];
        let document: DocumentNode;
        try {
          document = checked.document ?? parse(payload.query);
        } catch (error) {
          return [requestError(error as GraphQLError)];
        }
        const invalid = validate(schema, document);
        if (invalid.length > 0) return invalid.map(requestError);
        const operation = { schema, document, variables: payload.variables ?? undefined, operationName: payload.operationName };
        const overLimit = checkLimits(operation, limits);
        if (overLimit) return [overLimit];
        return {
          schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: createContext(services, events, ctx.extra.account),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map(toFormatted) } : undefined,
      onError: (_ctx, _id, _payload, errors) => errors.map(toFormatted),
    },
    sockets,
  );
  return {
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

function keyParam(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const value = params?.authorization ?? params?.Authorization ?? params?.apiKey;
  return typeof value === 'string' ? value : undefined;
}

/** A parse, validation or variable error: the caller's request was wrong (`invalid_request`). */
const requestError = (error: GraphQLError) =>
  new GraphQLError(requestErrorMessage(error.message), { nodes: error.nodes, extensions: { code: 'invalid_request' } });
