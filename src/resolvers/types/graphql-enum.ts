import { registerEnumType } from 'type-graphql';

/** GraphQL's spelling of a service value, as `graphqlEnumName` makes it: `record_update` → `RECORD_UPDATE`. */
type GraphqlEnumName<S extends string> = S extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Uppercase<Head> : `_${Head}`}${GraphqlEnumName<Rest>}`
  : '';

/** `record_update` → `RECORD_UPDATE`, `formPageSubmission` → `FORM_PAGE_SUBMISSION`. */
export const graphqlEnumName = (value: string): string => value.replace(/[A-Z]/g, '_$&').toUpperCase();

/**
 * Registers a GraphQL enum whose names follow GraphQL convention (ALL_CAPS) and whose values are the services'
 * own strings, so resolvers get and return `record_update` as REST does and only the GraphQL spelling changes.
 * `values` maps every service value to its description (a value without one does not compile).
 */
export function serviceEnum<T extends string>(
  name: string,
  description: string,
  values: Record<T, string>,
): { [V in T as GraphqlEnumName<V>]: V } {
  const entries = Object.entries<string>(values);
  const enumObject = Object.fromEntries(entries.map(([value]) => [graphqlEnumName(value), value]));
  const valuesConfig = Object.fromEntries(entries.map(([value, text]) => [graphqlEnumName(value), { description: text }]));
  registerEnumType(enumObject, { name, description, valuesConfig });
  return enumObject as { [V in T as GraphqlEnumName<V>]: V };
}
