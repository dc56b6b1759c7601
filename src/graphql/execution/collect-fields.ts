import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  isAbstractType,
  typeFromAST,
  type FieldNode,
  type FragmentSpreadNode,
  type GraphQLObjectType,
  type InlineFragmentNode,
  type SelectionSetNode,
} from 'graphql';
import type { PlanScope } from './plan.js';

/** The fields of a selection set on an object type by response key, as graphql-js collects them (@skip, @include, fragments). */
export function collectFields(scope: PlanScope, type: GraphQLObjectType, selectionSet: SelectionSetNode): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  collectInto(scope, type, selectionSet, fields, new Set());
  return fields;
}

/** The merged sub-selections of a field's nodes on its (runtime) object type. */
export function collectSubfields(scope: PlanScope, type: GraphQLObjectType, nodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  for (const node of nodes) if (node.selectionSet) collectInto(scope, type, node.selectionSet, fields, visited);
  return fields;
}

function collectInto(scope: PlanScope, type: GraphQLObjectType, selectionSet: SelectionSetNode, fields: Map<string, FieldNode[]>, visited: Set<string>) {
  for (const selection of selectionSet.selections) {
    if (!included(scope, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const known = fields.get(key);
      if (known) known.push(selection);
      else fields.set(key, [selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (conditionMatches(scope, selection, type)) collectInto(scope, type, selection.selectionSet, fields, visited);
    } else {
      const name = selection.name.value;
      if (visited.has(name)) continue;
      visited.add(name);
      const fragment = scope.fragments[name];
      if (fragment && conditionMatches(scope, fragment, type)) collectInto(scope, type, fragment.selectionSet, fields, visited);
    }
  }
}

function included(scope: PlanScope, node: FieldNode | FragmentSpreadNode | InlineFragmentNode): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, scope.variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, scope.variables)?.if !== false;
}

function conditionMatches(scope: PlanScope, fragment: { typeCondition?: InlineFragmentNode['typeCondition'] }, type: GraphQLObjectType): boolean {
  if (!fragment.typeCondition) return true;
  const condition = typeFromAST(scope.schema, fragment.typeCondition);
  if (condition === type) return true;
  return condition !== undefined && isAbstractType(condition) && scope.schema.isSubType(condition, type);
}
