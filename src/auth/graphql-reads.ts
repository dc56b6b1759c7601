import { Kind, parse, type DocumentNode } from 'graphql';

/**
 * True when a POST to /graphql can only read: its `query` text names one query operation (no mutation, no
 * subscription). A body without text (an automatic persisted query sent by hash alone), a batch, or a document that
 * does not parse might be a write, so it is not one.
 */
export function isGraphqlRead(path: string, body: unknown): boolean {
  if (path !== '/graphql' || typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true });
  } catch {
    return false;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const chosen =
    typeof operationName === 'string'
      ? operations.find((o) => o.name?.value === operationName)
      : operations.length === 1
        ? operations[0]
        : undefined;
  return chosen?.operation === 'query';
}
