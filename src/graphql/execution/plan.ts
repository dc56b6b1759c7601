import {
  GraphQLString,
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { collectFields, collectSubfields } from './collect-fields.js';
import { leafSerializer, type LeafSerializer } from './leaf-serializers.js';

/**
 * An operation compiled once for its document: for each selection, the field definitions, resolvers and how to
 * complete the values, so executing it reads no AST and builds no per-field state that the resolvers do not need.
 */
export interface FieldPlan {
  /** The response key (alias or name). */
  key: string;
  name: string;
  nodes: readonly FieldNode[];
  /** Unset for `__typename`. */
  definition: GraphQLField<unknown, unknown> | undefined;
  /** Unset where graphql-js's default resolver (a property read) applies. */
  resolve: GraphQLFieldResolver<unknown, unknown> | undefined;
  value: ValuePlan;
  /** A scalar or enum (possibly non-null): completing it needs no response path unless it fails. */
  leaf: boolean;
}

export const enum ValueKind {
  NonNull,
  List,
  Leaf,
  Object,
  Abstract,
}

export type ValuePlan = NonNullPlan | ListPlan | LeafPlan | ObjectPlan | AbstractPlan;

export interface NonNullPlan {
  kind: ValueKind.NonNull;
  inner: ValuePlan;
}

export interface ListPlan {
  kind: ValueKind.List;
  item: ValuePlan;
  /** The response keys of an item when they are plain properties that a pre-shaped list can supply as stored. */
  spliceKeys: readonly string[] | null | undefined;
}

export interface LeafPlan {
  kind: ValueKind.Leaf;
  type: GraphQLLeafType;
  serialize: LeafSerializer;
}

export interface ObjectPlan {
  kind: ValueKind.Object;
  type: GraphQLObjectType;
  nodes: readonly FieldNode[];
  fields: FieldPlan[] | undefined;
}

export interface AbstractPlan {
  kind: ValueKind.Abstract;
  type: GraphQLAbstractType;
  nodes: readonly FieldNode[];
  byType: Map<GraphQLObjectType, ObjectPlan>;
}

/** What compiling needs: field collection applies @skip/@include, whose arguments may be variables. */
export interface PlanScope {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/** The root selection of an operation on its root type; null for introspection, which graphql-js runs. */
export function planRoot(scope: PlanScope, rootType: GraphQLObjectType, selectionSet: SelectionSetNode): FieldPlan[] | null {
  const collected = collectFields(scope, rootType, selectionSet);
  for (const nodes of collected.values()) if (nodes[0].name.value === '__schema' || nodes[0].name.value === '__type') return null;
  return fieldPlans(rootType, collected);
}

/** The fields of an object value, compiled the first time a value of its type is completed. */
export function fieldsOf(scope: PlanScope, plan: ObjectPlan): FieldPlan[] {
  return (plan.fields ??= fieldPlans(plan.type, collectSubfields(scope, plan.type, plan.nodes)));
}

/** The plan of an abstract field's value once its runtime type is known. */
export function runtimePlan(plan: AbstractPlan, type: GraphQLObjectType): ObjectPlan {
  let runtime = plan.byType.get(type);
  if (!runtime) plan.byType.set(type, (runtime = { kind: ValueKind.Object, type, nodes: plan.nodes, fields: undefined }));
  return runtime;
}

/**
 * Whether a list's items can be taken as stored: objects of a type without isTypeOf whose selected fields are all
 * unaliased, argument-free, leaf-typed plain properties. Null when they cannot.
 */
export function spliceKeysOf(scope: PlanScope, plan: ListPlan): readonly string[] | null {
  if (plan.spliceKeys !== undefined) return plan.spliceKeys;
  let item = plan.item;
  if (item.kind === ValueKind.NonNull) item = item.inner;
  plan.spliceKeys = null;
  if (item.kind !== ValueKind.Object || item.type.isTypeOf) return null;
  const fields = fieldsOf(scope, item);
  const plain = fields.every(
    (field) =>
      field.definition !== undefined &&
      field.resolve === undefined &&
      field.key === field.name &&
      field.nodes.length === 1 &&
      !field.nodes[0].arguments?.length &&
      isLeafType(getNamedType(field.definition.type)),
  );
  return (plan.spliceKeys = plain ? fields.map((field) => field.key) : null);
}

function fieldPlans(parentType: GraphQLObjectType, collected: Map<string, readonly FieldNode[]>): FieldPlan[] {
  const plans: FieldPlan[] = [];
  for (const [key, nodes] of collected) {
    const name = nodes[0].name.value;
    if (name === '__typename') {
      plans.push({ key, name, nodes, definition: undefined, resolve: undefined, value: leafPlan(GraphQLString), leaf: true });
      continue;
    }
    const definition = parentType.getFields()[name];
    // graphql-js leaves out a field its type does not define; validation keeps such fields out of documents.
    if (!definition) continue;
    const value = valuePlan(definition.type, nodes);
    const leaf = (value.kind === ValueKind.NonNull ? value.inner : value).kind === ValueKind.Leaf;
    plans.push({ key, name, nodes, definition, resolve: definition.resolve, value, leaf });
  }
  return plans;
}

function valuePlan(type: GraphQLOutputType, nodes: readonly FieldNode[]): ValuePlan {
  if (isNonNullType(type)) return { kind: ValueKind.NonNull, inner: valuePlan(type.ofType, nodes) };
  if (isListType(type)) return { kind: ValueKind.List, item: valuePlan(type.ofType, nodes), spliceKeys: undefined };
  if (isLeafType(type)) return leafPlan(type);
  if (isObjectType(type)) return { kind: ValueKind.Object, type, nodes, fields: undefined };
  if (isAbstractType(type)) return { kind: ValueKind.Abstract, type, nodes, byType: new Map() };
  throw new Error(`Cannot plan values of type ${String(type)}`);
}

const leafPlan = (type: GraphQLLeafType): LeafPlan => ({ kind: ValueKind.Leaf, type, serialize: leafSerializer(type) });
