import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.js';

/**
 * Every GraphQL document of the web app is written with this `graphql()`: gql.tada infers its result and variables
 * types from schema.graphql (through graphql-env.d.ts, written by `npm run web:codegen`), and the hooks of
 * graphql-hooks.ts take them from the document. A document asking for a field the schema does not have fails the type check.
 * Fragments are not masked: a query's data holds the fields of the fragments it spreads, as the server sends them.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: {
    DateTime: string;
    LocalDate: string;
    TimeZone: string;
    JSONObject: Record<string, unknown>;
    NonNegativeInt: number;
    PositiveInt: number;
    SafeInt: number;
  };
  disableMasking: true;
}>();

/** The TypeScript type of a schema enum, scalar or input object, e.g. SchemaType<'UsagePlan'> is 'FREE' | 'TEAM' | … */
export type SchemaType<Name extends string> = ReturnType<typeof graphql.scalar<Name>>;

export type { ResultOf } from 'gql.tada';
