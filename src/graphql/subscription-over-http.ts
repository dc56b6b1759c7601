import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

/** A subscription sent as an HTTP request: it runs only over the socket, which the message names. */
export const subscriptionOverHttpError = () =>
  new GraphQLError(
    'Subscriptions run over a WebSocket at /graphql (ws:// or wss://, the graphql-ws protocol, graphql-transport-ws); POST and GET /graphql answer queries and mutations',
    { extensions: { code: 'invalid_request', http: { status: 400 } } },
  );

/**
 * Apollo plugin: refuses a subscription operation before it runs. The HTTP handler refuses those it sees in the
 * query text (GET included, which Apollo would answer 405); this catches those only Apollo sees (a persisted query's
 * hash).
 */
export function subscriptionOverHttpPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription') throw subscriptionOverHttpError();
        },
      };
    },
  };
}
