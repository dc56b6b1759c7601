import type { ApolloServerPlugin } from '@apollo/server';
import { getOperationAST, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/** A query text Apollo parsed and validated, with its operations as Apollo would select them. */
export class PreparedQuery {
  private readonly operations = new Map<string, OperationDefinitionNode>();

  constructor(readonly document: DocumentNode) {}

  /** The operation a request names (or the only one), as Apollo selects it; null when there is none to run. */
  operation(operationName: string | undefined): OperationDefinitionNode | null {
    const key = operationName ?? '';
    const known = this.operations.get(key);
    if (known !== undefined) return known;
    const operation = getOperationAST(this.document, operationName) ?? null;
    // Only names the document has are kept, so a caller cannot grow this map with names of its own.
    if (operation) this.operations.set(key, operation);
    return operation;
  }
}

/**
 * Query texts that passed Apollo's parse and validation, for the fast path (fast-path.ts) to run again without them.
 * Validation depends on the query text and the schema alone, so a text once valid stays valid for this process.
 */
export class PreparedQueries {
  private readonly entries = new LRUCache<string, PreparedQuery>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (_v, key) => key.length || 1 });

  get(query: string): PreparedQuery | undefined {
    return this.entries.get(query);
  }

  /** Apollo plugin: keeps every query text once Apollo has validated it and resolved its operation. */
  plugin(): ApolloServerPlugin {
    const entries = this.entries;
    return {
      async requestDidStart() {
        return {
          async didResolveOperation({ request, document }) {
            if (typeof request.query === 'string' && !entries.has(request.query)) entries.set(request.query, new PreparedQuery(document));
          },
        };
      },
    };
  }
}
