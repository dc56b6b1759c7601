import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  execute,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

/** Compiled queries kept, by query text and operation name (as @envelop/graphql-jit keeps them). */
const COMPILED_QUERIES = 1_000;

/**
 * Queries and mutations run by graphql-jit, compiled once per document and operation and kept in an LRU; what it
 * does not compile (subscriptions over HTTP, a document without one operation to run) runs on graphql-js.
 */
export class JitExecutor {
  private readonly compiled = new LRUCache<string, CompiledQuery>({ max: COMPILED_QUERIES });

  constructor(private readonly schema: GraphQLSchema) {}

  execute(run: {
    document: DocumentNode;
    /** The operation Apollo selected; none, graphql-js says why. */
    operation: OperationDefinitionNode | undefined;
    /** The query text, which names the compiled query (Apollo keeps one document per text). */
    source: string | undefined;
    operationName: string | undefined;
    variables: Record<string, unknown> | undefined;
    context: unknown;
  }): ExecutionResult | Promise<ExecutionResult> {
    const { schema } = this;
    const { document, operation, source, operationName, variables, context } = run;
    if (!operation || operation.operation === 'subscription' || source === undefined) {
      return execute({ schema, document, contextValue: context, variableValues: variables, operationName });
    }
    // graphql-js's coercion first, so that a variable that does not fit is refused with its messages (Apollo answers 400 for them).
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    const query = this.compiledFor(document, source, operationName);
    if (!query) return execute({ schema, document, contextValue: context, variableValues: variables, operationName });
    const result = query.query(undefined, context, variables ?? {});
    return result instanceof Promise ? result.then(withGraphqlJsErrors) : withGraphqlJsErrors(result);
  }

  private compiledFor(document: DocumentNode, source: string, operationName: string | undefined): CompiledQuery | undefined {
    const key = `${operationName ?? ''}\n${source}`;
    const known = this.compiled.get(key);
    if (known) return known;
    const compiled = compileQuery(this.schema, document, operationName);
    if (!isCompiledQuery(compiled)) return undefined;
    this.compiled.set(key, compiled);
    return compiled;
  }
}

/**
 * graphql-jit's errors leave `extensions` undefined, where graphql-js's are an object that Apollo reads a code from:
 * each becomes the graphql-js error it stands for (message, locations, path, original error).
 */
function withGraphqlJsErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((error) => {
    const copy = new GraphQLError(error.message, {
      path: error.path,
      originalError: error.originalError ?? undefined,
      extensions: error.extensions,
    });
    (copy as { locations?: GraphQLError['locations'] }).locations = error.locations;
    return copy;
  });
  return { ...result, errors };
}

/**
 * Apollo Server takes no executor option; a gateway serving the local schema is how a server supplies its own
 * executor (as Apollo's migration guide says). Apollo still parses, validates, runs the plugins and writes the response.
 */
export function jitExecutionGateway(schema: GraphQLSchema, executor: JitExecutor): Gateway {
  const run: GatewayExecutor = ({ document, operation, request, context }) =>
    Promise.resolve(
      executor.execute({
        document,
        operation,
        source: request.query,
        operationName: request.operationName,
        variables: request.variables,
        context,
      }),
    );
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    load: async () => ({ executor: run }),
    stop: async () => {},
  };
}
