import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { resolvers } from '../resolvers/index.js';
import { EventHub } from '../resolvers/support/event-hub.js';
import { describeRootTypes } from './root-type-descriptions.js';

/** The executable schema, built from the type-graphql classes in src/resolvers; subscriptions read `events`. */
export function buildGraphqlSchema(events = new EventHub()): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, validate: false, pubSub: events }).then(describeRootTypes);
}

/** The schema as committed in schema.graphql: SDL, sorted so that import order never shows as a change. */
export function printGraphqlSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
