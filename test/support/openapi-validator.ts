import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';

type Schema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }>;
}

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema({ $id: 'doc', components: rewriteRefs(document.components) });

const compiled = new Map<string, ValidateFunction>();
const templates = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/**
 * Checks a real response against the OpenAPI document: the operation must exist, the status must be documented
 * for it, and a JSON body must match the documented schema. Throws with the reasons otherwise.
 */
export function assertMatchesOpenApi(method: string, path: string, status: number, body: unknown): void {
  const pathname = path.split('?')[0];
  const match = templates.find((t) => t.pattern.test(pathname));
  if (!match) return; // routes outside the document (unknown routes, the sandbox) are not checked here
  const operation = document.paths[match.template][method.toLowerCase()];
  if (!operation) return;
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${method} ${match.template}: status ${status} is not documented`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) {
    if (body !== undefined && body !== '') throw new Error(`${method} ${match.template} ${status}: body where none is documented`);
    return;
  }
  const key = `${method} ${match.template} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema));
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(`${key}: response does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`);
  }
}

/**
 * Points `$ref`s at the registered document and reads OpenAPI 3.0's `nullable` as JSON Schema: a bare
 * `{ nullable: true }` beside a `$ref` in `anyOf`/`allOf` (how zod-to-openapi writes "this schema or null") means null.
 */
function rewriteRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(rewriteRefs) as T;
  if (!value || typeof value !== 'object') return value;
  const isBareNullable = (s: unknown) => JSON.stringify(s) === '{"nullable":true}';
  if (isBareNullable(value)) return {} as T; // elsewhere it means "any value, null included"
  const { allOf, anyOf, ...rest } = value as Record<string, unknown>;
  if (Array.isArray(allOf) && allOf.some(isBareNullable)) {
    return rewriteRefs({ ...rest, anyOf: [{ allOf: allOf.filter((s) => !isBareNullable(s)) }, { nullable: true }] }) as T;
  }
  if (Array.isArray(anyOf)) {
    const options = anyOf.map((s) => (isBareNullable(s) ? { type: 'null' } : rewriteRefs(s)));
    return { ...rewriteRefs(rest), anyOf: options } as T;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return Object.fromEntries(
    entries.map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? `doc${v}` : rewriteRefs(v)]),
  ) as T;
}
