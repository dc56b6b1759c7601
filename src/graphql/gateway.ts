import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { setOAuthBrowserCookie } from '../auth/oauth-browser-cookie.js';
import type { RequestBudget } from '../auth/request-budget.js';
import { secureCookies } from '../auth/session-cookie.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createContext, type GraphqlContext } from '../resolvers/context.js';
import type { ChangeLogged } from '../resolvers/change.resolver.js';
import { CHANGE_LOGGED, DELIVERY_ATTEMPTED, EventHub, SNAPSHOT_RECORDED } from '../resolvers/support/event-hub.js';
import { changeRecordOf } from '../resolvers/types/change.type.js';
import type { Services } from '../services.js';
import { requireApiKey } from './auth.js';
import { DocumentGuard } from './document-bounds.js';
import { createErrorFormatter } from './errors.js';
import { localEventRelay, type EventRelay } from './event-relay.js';
import { JitExecutor, jitExecutionGateway } from './jit-executor.js';
import { graphqlHttpHandler } from './http-handler.js';
import { createIdeRouter } from './ide.js';
import { landingPageWithOfflineIde } from './landing-page.js';
import { limitsPlugin } from './limits.js';
import { dropPlainFieldResolvers } from './plain-fields.js';
import { buildGraphqlSchema } from './schema.js';
import { subscriptionOverHttpPlugin } from './subscription-over-http.js';
import { serveSubscriptions, type SubscriptionServer } from './subscriptions.js';

export interface GraphqlGateway {
  /** /graphql (Apollo; Sandbox for a browser) and the offline IDE; mount after the app's JSON parser and `authenticate`. */
  router: Router;
  schema: GraphQLSchema;
  /** Serves subscriptions (graphql-ws) on the HTTP server's port. */
  listen(server: Server): void;
  stop(): Promise<void>;
}

interface GatewayDeps {
  config: Config;
  services: Services;
  logger: Logger;
  /** How the services' events reach subscribers: this process's hub, or every replica's (shared-state.ts). */
  eventRelay?: (hub: EventHub) => Promise<EventRelay>;
  /** Each account's request budget, which the socket's operations spend too. */
  budget: RequestBudget;
}

/** GraphQL over the same services as REST (CONTRACT §6). */
export async function createGraphqlGateway({
  config,
  services,
  logger,
  eventRelay = async (hub) => localEventRelay(hub),
  budget,
}: GatewayDeps): Promise<GraphqlGateway> {
  const events = new EventHub();
  const relay = await eventRelay(events);
  const stopFeeding = services.snapshots.onRecorded((event) => relay.publish(SNAPSHOT_RECORDED, event.usageBaseId, event));
  const stopFeedingDeliveries = services.onDeliveryAttempted((event) => {
    if (relay.local && !events.hasSubscribers(DELIVERY_ATTEMPTED, event.webhookId)) return;
    relay.publish(DELIVERY_ATTEMPTED, event.webhookId, event);
  });
  // Ingestion keeps its listeners for good (no way to remove one): this one goes quiet once the gateway stops.
  let feedingChanges = true;
  services.changeIngest.onEntriesLogged((configId, entries) => {
    // Subscribers elsewhere are unknown here: only a process-local relay can skip a config nobody listens to.
    if (!feedingChanges || (relay.local && !events.hasSubscribers(CHANGE_LOGGED, configId))) return;
    for (const entry of entries) relay.publish(CHANGE_LOGGED, configId, { configId, change: changeRecordOf(entry) } satisfies ChangeLogged);
  });
  const schema = dropPlainFieldResolvers(await buildGraphqlSchema(events));
  const format = createErrorFormatter(logger);
  const limits = { maxDepth: config.graphql.maxDepth, maxCost: config.graphql.maxCost };
  const apollo = new ApolloServer<GraphqlContext>({
    // Queries and mutations run by graphql-jit (jit-executor.ts); Apollo still parses, validates and runs the plugins.
    gateway: jitExecutionGateway(schema, new JitExecutor(schema)),
    introspection: config.graphql.introspection !== 'off',
    includeStacktraceInErrorResponses: false,
    // The app's requireCsrfToken checks the requests a browser authenticates by itself; API-key requests need no
    // preflight-forcing header, so clients' defaults (urql's GET without a content type) work.
    csrfPrevention: false,
    // main.ts owns SIGTERM/SIGINT (graceful shutdown); Apollo's own handlers would re-raise the signal and kill the process.
    stopOnTerminationSignals: false,
    formatError: format,
    logger: logger.child({ component: 'graphql' }),
    plugins: [
      subscriptionOverHttpPlugin(),
      limitsPlugin(limits),
      landingPageWithOfflineIde({ embed: true, includeCookies: false }),
      // No cache hints are used; the default plugin would wrap every field's resolver to collect them (a third of
      // the execution time of a 30-day snapshot page).
      ApolloServerPluginCacheControlDisabled(),
    ],
  });
  await apollo.start();

  const router = Router();
  router.all(
    '/graphql',
    requireApiKey(config.graphql.introspection),
    bodyForApollo,
    graphqlHttpHandler({
      apollo,
      createContext: (res) =>
        Object.assign(createContext(services, events, res.locals.account), {
          bindOAuthBrowser: (binding: string) => setOAuthBrowserCookie(res, binding, secureCookies(config.publicUrl)),
        }),
      guard: new DocumentGuard(config.graphql.document),
    }),
  );
  router.use(createIdeRouter());

  let subscriptions: SubscriptionServer | undefined;
  return {
    router,
    schema,
    listen: (server) => {
      subscriptions = serveSubscriptions(server, {
        schema,
        services,
        events,
        limits,
        bounds: config.graphql.document,
        format,
        publicUrl: config.publicUrl,
        corsOrigins: config.corsOrigins,
        budget,
        maxSocketsPerAccount: config.graphql.maxSocketsPerAccount,
      });
    },
    stop: async () => {
      stopFeeding();
      stopFeedingDeliveries();
      feedingChanges = false;
      await relay.close();
      await subscriptions?.close();
      await apollo.stop();
    },
  };
}

/** Express 5 leaves req.body unset when nothing was parsed (a GET); Apollo insists on the property, if empty. */
function bodyForApollo(req: Request, _res: Response, next: NextFunction) {
  req.body ??= undefined;
  next();
}
