type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullMarker = (value: unknown) => JSON.stringify(value) === '{"nullable":true}';
const REF_PREFIX = '#/components/schemas/';
/** Keys whose values are data, not schemas: never rewritten. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum']);
/** Keys that make a schema more than "any value". */
const CONSTRAINTS = ['type', 'enum', 'format', '$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'properties', 'items', 'additionalProperties'];

/**
 * In OpenAPI 3.0 `nullable` only counts beside a `type`, so stock validators misread two forms zod-to-openapi writes:
 * "this component or null" as `allOf: [{ $ref }, { nullable: true }]` (read as "must be that object"), and "any value"
 * (`z.unknown()`) as `{ nullable: true }` (which ajv refuses). The first becomes the component's schema inlined with
 * `nullable: true`, the second loses `nullable` (no type: any value, null included). Other forms, such as a null
 * member of a union, are left for the document's stock-validator test to refuse.
 */
export function withStockNullables<D extends object>(document: D): D {
  const components = (document as { components?: { schemas?: Record<string, Json> } }).components?.schemas ?? {};

  const fix = (value: unknown, inlining: ReadonlySet<string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => fix(item, inlining));
    if (!isObject(value)) return value;
    const { allOf, ...siblings } = value;
    const name = nullableRefName(allOf);
    const target = name === undefined ? undefined : components[name];
    if (name !== undefined && typeof target?.type === 'string' && !inlining.has(name)) {
      const withNull = Array.isArray(target.enum) ? { enum: [...target.enum, null] } : {};
      return fix({ ...target, ...withNull, nullable: true, ...siblings }, new Set([...inlining, name]));
    }
    const anyValue = value.nullable === true && !CONSTRAINTS.some((key) => key in value);
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !(anyValue && key === 'nullable'))
        .map(([key, sub]) => {
          if (key === 'properties' && isObject(sub)) {
            return [key, Object.fromEntries(Object.entries(sub).map(([prop, schema]) => [prop, fix(schema, inlining)]))];
          }
          if (DATA_KEYS.has(key)) return [key, sub];
          // In a union the marker means "or null"; dropping it would make the union take anything.
          if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(sub)) {
            return [key, sub.map((member) => (isNullMarker(member) ? member : fix(member, inlining)))];
          }
          return [key, fix(sub, inlining)];
        }),
    );
  };

  return fix(document, new Set()) as D;
}

function nullableRefName(allOf: unknown): string | undefined {
  if (!Array.isArray(allOf) || allOf.length !== 2 || !allOf.some(isNullMarker)) return undefined;
  const ref = allOf.find((member) => isObject(member) && typeof member.$ref === 'string') as { $ref: string } | undefined;
  return ref?.$ref.startsWith(REF_PREFIX) ? ref.$ref.slice(REF_PREFIX.length) : undefined;
}
