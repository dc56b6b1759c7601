import { createRequire } from 'node:module';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  getOperationAST,
  getVariableValues,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type * as QueryComplexity from 'graphql-query-complexity/cjs';

// The package's ESM build imports graphql's .mjs files, a second copy of graphql beside the CommonJS one everything
// else loads ("from another module or realm"); its CommonJS build, required as such, shares ours.
const { fieldExtensionsEstimator, getComplexity, simpleEstimator } = createRequire(import.meta.url)(
  'graphql-query-complexity/cjs',
) as typeof QueryComplexity;
type ComplexityEstimator = QueryComplexity.ComplexityEstimator;

export interface OperationLimits {
  maxDepth: number;
  maxCost: number;
}

export interface OperationToCheck {
  schema: GraphQLSchema;
  document: DocumentNode;
  variables?: Record<string, unknown>;
  operationName?: string | null;
}

/** Introspection is the IDEs' own business: it is neither deep nor costly in the sense these limits guard. */
const skipIntrospection: ComplexityEstimator = ({ field }) => (field.name.startsWith('__') ? 0 : undefined);

/** Verdicts per parsed document (Apollo keeps one DocumentNode per query text), by operation name and variables. */
const verdicts = new WeakMap<DocumentNode, Map<string, GraphQLError | undefined>>();
const VERDICTS_PER_DOCUMENT = 100;

/**
 * Depth and cost of an operation, checked before it runs. Cost is one per field, and a connection's selection counts
 * once per item it may return (`first`/`last`, else its default page size), so nested pages multiply. The verdict is
 * remembered: measuring cost walks the whole operation, a tenth of the work of a typical page.
 */
export function checkLimits(operation: OperationToCheck, limits: OperationLimits): GraphQLError | undefined {
  const key = JSON.stringify([operation.operationName ?? null, operation.variables ?? null, limits.maxDepth, limits.maxCost]);
  let known = verdicts.get(operation.document);
  if (known?.has(key)) return known.get(key);
  const verdict = measureLimits(operation, limits);
  if (!known || known.size >= VERDICTS_PER_DOCUMENT) {
    known = new Map();
    verdicts.set(operation.document, known);
  }
  known.set(key, verdict);
  return verdict;
}

function measureLimits(
  { schema, document, variables, operationName }: OperationToCheck,
  limits: OperationLimits,
): GraphQLError | undefined {
  // No operation to run (a name the document lacks, several and none named) or variables that do not fit their
  // definitions: graphql-js refuses to run it, with its own messages and locations, before anything executes.
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const depth = depthOf(operation.selectionSet, { fragments, depths: new Map(), visiting: new Set() });
  if (depth > limits.maxDepth) return limitError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`);
  if (getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 }).errors) return undefined;
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [skipIntrospection, fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (error) {
    // Whatever stops the measurement (the library's node cap, bad variables, a fault of ours) refuses the operation:
    // one that cannot be measured must not run unmeasured.
    const reason = error instanceof GraphQLError ? error.message : 'the cost of the query could not be measured';
    return limitError(`Query refused: ${reason.replace(/\.$/, '')}`);
  }
  if (cost > limits.maxCost) return limitError(`Query cost ${cost} exceeds the limit of ${limits.maxCost}`);
  return undefined;
}

/** Apollo plugin: rejects an operation over the limits once it is parsed and validated, before execution. */
export function limitsPlugin(limits: OperationLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, request, operationName }) {
          const error = checkLimits({ schema, document, variables: request.variables, operationName }, limits);
          if (error) throw error;
        },
      };
    },
  };
}

interface DepthScope {
  fragments: Map<string, FragmentDefinitionNode>;
  /** Each fragment's depth, measured once however often it is spread: walking it per spread is exponential. */
  depths: Map<string, number>;
  /** Fragments being measured (validation refuses cycles; this keeps the walk finite regardless). */
  visiting: Set<string>;
}

function depthOf(selectionSet: SelectionSetNode, scope: DepthScope): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      const below = selection.selectionSet ? depthOf(selection.selectionSet, scope) : 0;
      deepest = Math.max(deepest, 1 + below);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, scope));
    } else {
      deepest = Math.max(deepest, fragmentDepth(selection.name.value, scope));
    }
  }
  return deepest;
}

function fragmentDepth(name: string, scope: DepthScope): number {
  const known = scope.depths.get(name);
  if (known !== undefined) return known;
  const fragment = scope.fragments.get(name);
  if (!fragment || scope.visiting.has(name)) return 0;
  scope.visiting.add(name);
  const depth = depthOf(fragment.selectionSet, scope);
  scope.visiting.delete(name);
  scope.depths.set(name, depth);
  return depth;
}

const limitError = (message: string) => new GraphQLError(message, { extensions: { code: 'invalid_request', http: { status: 400 } } });
