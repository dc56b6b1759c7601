import {
  GraphQLError,
  defaultTypeResolver,
  getArgumentValues,
  isObjectType,
  locatedError,
  responsePathAsArray,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { PreShapedList } from '../../resolvers/support/pre-shaped-list.js';
import { fieldsOf, runtimePlan, spliceKeysOf, ValueKind, type AbstractPlan, type FieldPlan, type ListPlan, type ObjectPlan, type PlanScope, type ValuePlan } from './plan.js';
import { isKept } from '../../resolvers/support/kept-rows.js';
import { isPureSelection, keepRenderedRow, renderedRow } from './rendered-rows.js';
import type { Splices } from './splices.js';

type Path = GraphQLResolveInfo['path'];
type Source = Record<string, unknown> | null | undefined;

/** One run of a compiled operation: graphql-js's execution semantics (errors, null propagation, order), without its per-field state. */
export interface Execution {
  scope: PlanScope;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  context: unknown;
  errors: GraphQLError[];
  /** Set when the result is written by the HTTP handler, which puts spliced JSON in place. */
  splices: Splices | undefined;
  /** Properties called as methods so far (graphql-js's default resolver passes them the context). */
  methodCalls?: number;
}

/** Runs the root fields of a query (in parallel) or a mutation (one after another), as graphql-js does. */
export async function executeOperation(execution: Execution, rootType: GraphQLObjectType, fields: FieldPlan[]): Promise<ExecutionResult> {
  let data: Record<string, unknown> | null;
  try {
    data = execution.operation.operation === 'mutation' ? await executeSerially(execution, rootType, fields) : await executeFields(execution, rootType, fields, undefined, undefined);
  } catch (error) {
    execution.errors.push(error as GraphQLError);
    data = null;
  }
  return execution.errors.length === 0 ? { data } : { errors: execution.errors, data };
}

async function executeSerially(execution: Execution, rootType: GraphQLObjectType, fields: FieldPlan[]): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  for (const field of fields) data[field.key] = await executeField(execution, rootType, field, undefined, undefined);
  return data;
}

function executeFields(execution: Execution, type: GraphQLObjectType, fields: FieldPlan[], source: Source, path: Path | undefined): Record<string, unknown> | Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  let pending: Array<Promise<unknown>> | undefined;
  let pendingKeys: string[] | undefined;
  for (const field of fields) {
    const value = executeField(execution, type, field, source, path);
    result[field.key] = value;
    if (value instanceof Promise) {
      (pending ??= []).push(value);
      (pendingKeys ??= []).push(field.key);
    }
  }
  if (!pending) return result;
  return Promise.all(pending).then((values) => {
    for (let i = 0; i < values.length; i++) result[pendingKeys![i]] = values[i];
    return result;
  });
}

function executeField(execution: Execution, type: GraphQLObjectType, field: FieldPlan, source: Source, parentPath: Path | undefined): unknown {
  if (field.definition === undefined) return type.name;
  // Made when something needs it: a resolver's info, a value below this one, an error.
  let path: Path | undefined;
  try {
    let value: unknown;
    if (field.resolve !== undefined) {
      const args = field.definition.args.length === 0 ? {} : getArgumentValues(field.definition, field.nodes[0], execution.scope.variables);
      value = field.resolve(source, args, execution.context, infoOf(execution, type, field, (path = pathOf(parentPath, field, type))));
    } else if (typeof source === 'object' && source !== null) {
      value = source[field.name];
      // graphql-js's default resolver calls a method of that name.
      if (typeof value === 'function') {
        execution.methodCalls = (execution.methodCalls ?? 0) + 1;
        value = (source[field.name] as Function)({}, execution.context, infoOf(execution, type, field, (path = pathOf(parentPath, field, type))));
      }
    }
    if (field.leaf && !(value instanceof Promise)) return completeValue(execution, field.value, type, field, value, undefined);
    const at = (path ??= pathOf(parentPath, field, type));
    const completed = value instanceof Promise
      ? value.then((resolved) => completeValue(execution, field.value, type, field, resolved, at))
      : completeValue(execution, field.value, type, field, value, at);
    return completed instanceof Promise ? completed.then(undefined, (error: unknown) => fieldError(execution, error, field.nodes, at, field.value)) : completed;
  } catch (error) {
    return fieldError(execution, error, field.nodes, path ?? pathOf(parentPath, field, type), field.value);
  }
}

const pathOf = (prev: Path | undefined, field: FieldPlan, type: GraphQLObjectType): Path => ({ prev, key: field.key, typename: type.name });

/** A failed field is null with its error recorded; under a non-null type the null moves up to the nearest nullable parent. */
function fieldError(execution: Execution, raw: unknown, nodes: readonly FieldNode[], path: Path, plan: ValuePlan): null {
  const error = locatedError(raw, nodes, responsePathAsArray(path));
  if (plan.kind === ValueKind.NonNull) throw error;
  execution.errors.push(error);
  return null;
}

/** `path` is unset only for leaves, which need none. */
function completeValue(execution: Execution, plan: ValuePlan, type: GraphQLObjectType, field: FieldPlan, value: unknown, path: Path | undefined): unknown {
  if (value instanceof Error) throw value;
  switch (plan.kind) {
    case ValueKind.NonNull: {
      const completed = completeValue(execution, plan.inner, type, field, value, path);
      if (completed === null) throw new Error(`Cannot return null for non-nullable field ${type.name}.${field.name}.`);
      return completed;
    }
    case ValueKind.Leaf: {
      if (value == null) return null;
      const serialized = plan.serialize(value);
      if (serialized == null) throw new Error(`Expected \`${plan.type.name}.serialize(${describe(value)})\` to return non-nullable value, returned: ${describe(serialized)}`);
      return serialized;
    }
    case ValueKind.List:
      return value == null ? null : completeList(execution, plan, type, field, value, path!);
    case ValueKind.Object:
      if (value == null) return null;
      return execution.splices && isKept(value) ? completeKeptRow(execution, execution.splices, plan, type, field, value, path!) : completeObject(execution, plan, type, field, value, path!);
    case ValueKind.Abstract:
      return value == null ? null : completeAbstract(execution, plan, type, field, value, path!);
  }
}

function completeList(execution: Execution, plan: ListPlan, type: GraphQLObjectType, field: FieldPlan, value: unknown, path: Path): unknown {
  if (execution.splices && value instanceof PreShapedList && sameKeys(spliceKeysOf(execution.scope, plan), value.keys)) {
    return execution.splices.add(value.bytes);
  }
  const rendered = execution.splices && Array.isArray(value) ? renderedList(execution.scope, plan, value) : undefined;
  if (rendered) return execution.splices!.addList(rendered);
  if (typeof value !== 'object' || value === null || typeof (value as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw new GraphQLError(`Expected Iterable, but did not find one for field "${type.name}.${field.name}".`);
  }
  const items: unknown[] = [];
  let anyPromise = false;
  let index = 0;
  for (const item of value as Iterable<unknown>) {
    const itemPath: Path = { prev: path, key: index++, typename: undefined };
    try {
      let completed = item instanceof Promise
        ? item.then((resolved) => completeValue(execution, plan.item, type, field, resolved, itemPath))
        : completeValue(execution, plan.item, type, field, item, itemPath);
      if (completed instanceof Promise) {
        anyPromise = true;
        completed = completed.then(undefined, (error: unknown) => fieldError(execution, error, field.nodes, itemPath, plan.item));
      }
      items.push(completed);
    } catch (error) {
      items.push(fieldError(execution, error, field.nodes, itemPath, plan.item));
    }
  }
  return anyPromise ? Promise.all(items) : items;
}

function completeObject(execution: Execution, plan: ObjectPlan, type: GraphQLObjectType, field: FieldPlan, value: unknown, path: Path): unknown {
  const objectType = plan.type;
  if (objectType.isTypeOf) {
    const isTypeOf = objectType.isTypeOf(value, execution.context, infoOf(execution, type, field, path));
    const check = (matches: unknown) => {
      if (!matches) throw new GraphQLError(`Expected value of type "${objectType.name}" but got: ${describe(value)}.`, { nodes: field.nodes });
      return executeFields(execution, objectType, fieldsOf(execution.scope, plan), value as Source, path);
    };
    return isTypeOf instanceof Promise ? isTypeOf.then(check) : check(isTypeOf);
  }
  return executeFields(execution, objectType, fieldsOf(execution.scope, plan), value as Source, path);
}

/** The rendered texts of a list of kept rows under a pure selection, when every row has one (else the rows complete one by one). */
function renderedList(scope: PlanScope, plan: ListPlan, rows: unknown[]): Buffer[] | undefined {
  const item = plan.item.kind === ValueKind.NonNull ? plan.item.inner : plan.item;
  if (item.kind !== ValueKind.Object || rows.length === 0) return undefined;
  const fields = fieldsOf(scope, item);
  if (!isPureSelection(scope, fields)) return undefined;
  const rendered: Buffer[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const text = isKept(row) ? renderedRow(fields, row as object) : undefined;
    if (text === undefined) return undefined;
    rendered[i] = text;
  }
  return rendered;
}

/** A kept row under a pure selection is completed once and spliced as text from then on (rendered-rows.ts). */
function completeKeptRow(execution: Execution, splices: Splices, plan: ObjectPlan, type: GraphQLObjectType, field: FieldPlan, row: object, path: Path): unknown {
  const fields = fieldsOf(execution.scope, plan);
  if (!isPureSelection(execution.scope, fields)) return completeObject(execution, plan, type, field, row, path);
  const rendered = renderedRow(fields, row);
  if (rendered !== undefined) return splices.add(rendered);
  const errors = execution.errors.length;
  const methodCalls = execution.methodCalls;
  const completed = completeObject(execution, plan, type, field, row, path);
  // Kept only as rendered without errors, without waiting and without calling a method of the row.
  if (!(completed instanceof Promise) && execution.errors.length === errors && execution.methodCalls === methodCalls) {
    keepRenderedRow(fields, row, splices.render(completed));
  }
  return completed;
}

function completeAbstract(execution: Execution, plan: AbstractPlan, type: GraphQLObjectType, field: FieldPlan, value: unknown, path: Path): unknown {
  const resolveType = plan.type.resolveType ?? defaultTypeResolver;
  const runtime = resolveType(value, execution.context, infoOf(execution, type, field, path), plan.type);
  const complete = (name: unknown) =>
    completeObject(execution, runtimePlan(plan, runtimeTypeOf(execution.scope.schema, plan, type, field, name)), type, field, value, path);
  return runtime instanceof Promise ? runtime.then(complete) : complete(runtime);
}

/** The object type an abstract type's resolveType named, checked as graphql-js checks it. */
function runtimeTypeOf(schema: GraphQLSchema, plan: AbstractPlan, type: GraphQLObjectType, field: FieldPlan, name: unknown): GraphQLObjectType {
  const abstract = plan.type.name;
  if (typeof name !== 'string') {
    throw new GraphQLError(`Abstract type "${abstract}" must resolve to an Object type at runtime for field "${type.name}.${field.name}".`, { nodes: field.nodes });
  }
  const runtime = schema.getType(name);
  if (runtime == null) throw new GraphQLError(`Abstract type "${abstract}" was resolved to a type "${name}" that does not exist inside the schema.`, { nodes: field.nodes });
  if (!isObjectType(runtime)) throw new GraphQLError(`Abstract type "${abstract}" was resolved to a non-object type "${name}".`, { nodes: field.nodes });
  if (!schema.isSubType(plan.type, runtime)) throw new GraphQLError(`Runtime Object type "${name}" is not a possible type for "${abstract}".`, { nodes: field.nodes });
  return runtime;
}

/** graphql-js's resolve info, built only for the resolvers (and type checks) that receive it. */
function infoOf(execution: Execution, type: GraphQLObjectType, field: FieldPlan, path: Path): GraphQLResolveInfo {
  return {
    fieldName: field.name,
    fieldNodes: field.nodes,
    returnType: field.definition!.type,
    parentType: type,
    path,
    schema: execution.scope.schema,
    fragments: execution.fragments,
    rootValue: undefined,
    operation: execution.operation,
    variableValues: execution.scope.variables,
  };
}

function sameKeys(planned: readonly string[] | null, stored: readonly string[]): boolean {
  if (planned === null || planned.length !== stored.length) return false;
  for (let i = 0; i < planned.length; i++) if (planned[i] !== stored[i]) return false;
  return true;
}

const describe = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value));
