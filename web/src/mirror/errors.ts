import { GraphqlErrors } from '../graphql-hooks.js';

/** The `extensions.code` of a GraphQL error answer (not_found, invalid_request, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof GraphqlErrors)) return undefined;
  const code = error.errors[0]?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}
