import type { ValidateFunction } from 'ajv';
import ajvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';

type Schema = Record<string, unknown>;
interface Content {
  content?: { 'application/json'?: { schema: Schema } };
}
interface Operation {
  parameters?: { name: string; schema: Schema }[];
  requestBody?: Content;
  responses: Record<string, Content>;
}

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

// OpenAPI 3.0 schemas are JSON Schema draft 04 (boolean exclusiveMinimum) plus `nullable`, which Ajv reads natively
// and only beside a `type`: no rewriting of the document, so this reads it as any stock validator does.
const ajv = new ajvDraft04.default({ strict: false, allErrors: true });
(addFormats as unknown as (a: typeof ajv) => void)(ajv);
ajv.addSchema({ components: pointIntoDocument(document.components) }, 'doc');

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
    validate = ajv.compile(pointIntoDocument(schema));
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(`${key}: response does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`);
  }
}

/** Compiles every schema of the document (components, parameters, bodies, responses); the problems of those that fail. */
export function uncompilableSchemas(): string[] {
  const schemas: [string, Schema][] = Object.keys(document.components.schemas).map((name) => [
    name,
    { $ref: `#/components/schemas/${name}` },
  ]);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) schemas.push([`${where} ${parameter.name}`, parameter.schema]);
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) schemas.push([`${where} body`, body]);
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (schema) schemas.push([`${where} ${status}`, schema]);
      }
    }
  }
  return schemas.flatMap(([where, schema]) => {
    try {
      ajv.compile(pointIntoDocument(schema));
      return [];
    } catch (error) {
      return [`${where}: ${(error as Error).message}`];
    }
  });
}

/** Points the document's local `$ref`s at the copy of its components registered above as `doc`. */
function pointIntoDocument<T>(value: T): T {
  if (Array.isArray(value)) return value.map(pointIntoDocument) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? `doc${v}` : pointIntoDocument(v)]),
  ) as T;
}
