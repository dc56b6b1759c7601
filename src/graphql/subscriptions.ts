import type { IncomingMessage, Server } from 'node:http';
import { execute, getOperationAST, GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { RequestBudget } from '../auth/request-budget.js';
import type { DocumentBounds } from '../config.js';
import { createContext } from '../resolvers/context.js';
import type { EventHub } from '../resolvers/support/event-hub.js';
import type { AccountSummary } from '../services/account.service.js';
import type { Services } from '../services.js';
import { checkDocument } from './document-bounds.js';
import { parameterNestingError } from './input-nesting.js';
import { SocketAccess } from './socket-access.js';
import { cookieOriginCheck } from './socket-origin.js';
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
  /** The app's public address (PUBLIC_URL) and CORS_ORIGINS: the pages whose session cookie may open a socket. */
  publicUrl?: string;
  corsOrigins: string[];
  /** Each account's request budget: every operation on a socket spends one request. */
  budget: RequestBudget;
  /** GRAPHQL_MAX_SOCKETS_PER_ACCOUNT. */
  maxSocketsPerAccount: number;
}

/**
 * graphql-ws on the HTTP server's port at /graphql. The connection is authenticated by the API key in
 * `connectionParams` (`{ "authorization": "Bearer sk_…" }` or the bare key), from anywhere; without one, by the web
 * application's session cookie on the upgrade request, only from an allowed Origin (see socket-origin.ts). A key
 * given wins (a wrong one does not fall back to the cookie, as over HTTP). A socket without a valid credential is
 * closed with 4403; the credential is checked again before every operation, which spends the account's budget
 * (socket-access.ts). Operations get the same validation, limits, context and error shaping as over HTTP.
 */
export function serveSubscriptions(server: Server, options: Options): SubscriptionServer {
  const { schema, services, events, limits, bounds, format } = options;
  const sockets = new WebSocketServer({ server, path: '/graphql' });
  const access = new SocketAccess({
    services,
    budget: options.budget,
    maxSocketsPerAccount: options.maxSocketsPerAccount,
    cookieAllowed: cookieOriginCheck(options.publicUrl, options.corsOrigins),
  });
  const toFormatted = (error: GraphQLError) =>
    !error.path && !error.originalError ? requestError(error).toJSON() : format(error.toJSON(), error);
  const disposable = useServer<Record<string, unknown>, { account: AccountSummary; request: IncomingMessage }>(
    {
      onConnect: (ctx) => access.connect(ctx.connectionParams, ctx.extra.request, ctx.extra.socket),
      onClose: (ctx) => access.release(ctx.extra.socket),
      onSubscribe: async (ctx, _id, payload) => {
        const admitted = await access.admit(ctx.extra.socket);
        if ('error' in admitted) return [admitted.error];
        ctx.extra.account = admitted.account;
        // Before the limits and graphql-js walk the variables recursively (a throw here would close the socket).
        const tooDeep = parameterNestingError(payload);
        if (tooDeep) return [tooDeep];
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
        // graphql-ws would answer "Unable to identify operation"; graphql-js says why (none, several unnamed, an
        // unknown name), and stops there without running anything.
        if (!getOperationAST(document, payload.operationName)) {
          const { errors = [] } = await execute({ schema, document, operationName: payload.operationName });
          return errors.map(requestError);
        }
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
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(toFormatted) } : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map(toFormatted),
    },
    sockets,
  );
  return {
    close: async () => {
      access.stop();
      await disposable.dispose();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

/** A parse, validation or variable error: the caller's request was wrong (`invalid_request`). */
const requestError = (error: GraphQLError) =>
  new GraphQLError(requestErrorMessage(error.message), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { code: 'invalid_request' },
  });
