import type { GraphQLSchema } from 'graphql';

const ROOT_TYPE_DESCRIPTIONS = {
  query:
    'Reads, scoped to the account of the API key: tracked bases and their snapshots, monitoring configs and their changes, webhooks and their deliveries, upstream look-ups, and Relay refetching by global id',
  mutation:
    'Writes, Relay style: one `input` argument, and a payload that echoes its clientMutationId. The same rules and error codes (`extensions.code`) as REST',
  subscription:
    'Events over graphql-ws at ws://HOST/graphql, authenticated by the connectionParams `{ "authorization": "Bearer sk_…" }`, or by the web application’s session cookie from the app’s own origin or one in CORS_ORIGINS',
};

/** type-graphql builds Query, Mutation and Subscription without a way to describe them, so they are described here. */
export function describeRootTypes(schema: GraphQLSchema): GraphQLSchema {
  const roots = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() };
  for (const [operation, type] of Object.entries(roots)) {
    if (type) type.description = ROOT_TYPE_DESCRIPTIONS[operation as keyof typeof ROOT_TYPE_DESCRIPTIONS];
  }
  return schema;
}
