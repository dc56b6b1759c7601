import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  execute,
  getVariableValues,
  Kind,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { executeOperation } from './execute.js';
import { planRoot, type FieldPlan, type PlanScope } from './plan.js';
import type { Splices } from './splices.js';

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

/** Compiled plans of one document (Apollo keeps one DocumentNode per query text): by operation and directive variables. */
interface DocumentPlans {
  fragments: Record<string, FragmentDefinitionNode>;
  /** Variables that @skip/@include read: their values select which fields a plan holds. */
  directiveVariables: string[];
  operations: Map<string, { scope: PlanScope; fields: FieldPlan[] | null }>;
}

const PLANS_PER_DOCUMENT = 50;

/**
 * Apollo Server 5 takes no executor option; a gateway is how a server supplies one. This one serves the local schema
 * and runs operations with the compiled executor; the HTTP handler's fast path (graphql/fast-path.ts) runs the same.
 */
export function compiledExecutionGateway(schema: GraphQLSchema, executor: CompiledExecutor): Gateway {
  const run: GatewayExecutor = ({ document, operation, request, context }) =>
    executor.execute({ document, operation, operationName: request.operationName, variables: request.variables, context, splices: request.http ? splicesOf(context) : undefined });
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    load: async () => ({ executor: run }),
    stop: async () => {},
  };
}

export interface OperationToRun {
  document: DocumentNode;
  /** The operation Apollo (or the fast path) selected; none, graphql-js reports why. */
  operation: OperationDefinitionNode | undefined;
  /** The name the request asked for, for graphql-js when it runs the operation. */
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  context: unknown;
  /** Where the executor may put rendered JSON for the HTTP handler to write as bytes; none, every value is in the result. */
  splices: Splices | undefined;
}

/**
 * Runs queries and mutations from plans compiled once per document (execute.ts); subscriptions over HTTP,
 * introspection and documents without a single selected operation go to graphql-js.
 */
export class CompiledExecutor {
  private readonly documents = new WeakMap<DocumentNode, DocumentPlans>();

  constructor(private readonly schema: GraphQLSchema) {}

  async execute({ document, operation, operationName, variables: given, context, splices }: OperationToRun): Promise<ExecutionResult> {
    const { schema } = this;
    const rootType = operation && operation.operation !== 'subscription' ? schema.getRootType(operation.operation) : undefined;
    if (!operation || !rootType) return fallback(schema, document, given, operationName, context);
    const variables = getVariableValues(schema, operation.variableDefinitions ?? [], given ?? {}, { maxErrors: 50 });
    if (variables.errors) return { errors: variables.errors };
    let plans = this.documents.get(document);
    if (!plans) this.documents.set(document, (plans = documentPlans(document)));
    const plan = operationPlan(schema, plans, operation, variables.coerced);
    if (!plan.fields) return fallback(schema, document, given, operationName, context);
    const scope = { ...plan.scope, variables: variables.coerced };
    return executeOperation({ scope, operation, fragments: plans.fragments, context, errors: [], splices }, rootType, plan.fields);
  }
}

function operationPlan(schema: GraphQLSchema, plans: DocumentPlans, operation: OperationDefinitionNode, variables: Record<string, unknown>) {
  const key = `${operation.name?.value ?? ''}\n${JSON.stringify(plans.directiveVariables.map((name) => variables[name] ?? null))}`;
  let plan = plans.operations.get(key);
  if (!plan) {
    const scope = { schema, fragments: plans.fragments, variables };
    plan = { scope, fields: planRoot(scope, schema.getRootType(operation.operation)!, operation.selectionSet) };
    if (plans.operations.size >= PLANS_PER_DOCUMENT) plans.operations.clear();
    plans.operations.set(key, plan);
  }
  return plan;
}

function documentPlans(document: DocumentNode): DocumentPlans {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const directiveVariables = new Set<string>();
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'skip' && node.name.value !== 'include') return;
      visit(node, { Variable: (variable) => void directiveVariables.add(variable.name.value) });
    },
  });
  return { fragments, directiveVariables: [...directiveVariables], operations: new Map() };
}

/** graphql-js, exactly as Apollo runs it without a gateway. */
function fallback(
  schema: GraphQLSchema,
  document: DocumentNode,
  variableValues: Record<string, unknown> | undefined,
  operationName: string | undefined,
  context: unknown,
): Promise<ExecutionResult> {
  return Promise.resolve(execute({ schema, document, contextValue: context, variableValues, operationName }));
}

/** The HTTP handler's splices for the request, on its context (GraphqlContext.splices); none, no splicing. */
const splicesOf = (context: unknown): Splices | undefined => (context as { splices?: Splices } | undefined)?.splices;
