import { Kind, parse, visit, type ASTNode, type DocumentNode } from 'graphql';

/**
 * graphql-schema-linter's description and naming rules, over SDL as that linter reads it (built-in scalars and
 * introspection types are not in printed SDL, so they are exempt as there). Each finding names its rule.
 */
const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
const CAMEL_CASE = /^[a-z][A-Za-z0-9]*$/;

const TYPE_KINDS: ReadonlySet<string> = new Set([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.SCALAR_TYPE_DEFINITION,
]);

const CHECKED_KINDS: ReadonlySet<string> = new Set([
  ...TYPE_KINDS,
  Kind.FIELD_DEFINITION,
  Kind.INPUT_VALUE_DEFINITION,
  Kind.ENUM_VALUE_DEFINITION,
]);

type Named = ASTNode & { name: { value: string }; description?: { value: string } };

const described = (node: Named) => (node.description?.value.trim() ?? '') !== '';

export function lintSchema(sdl: string | DocumentNode): string[] {
  const findings: string[] = [];
  const report = (rule: string, message: string) => findings.push(`${rule}: ${message}`);
  visit(typeof sdl === 'string' ? parse(sdl) : sdl, {
    enter(node, _key, _parent, _path, ancestors) {
      if (!CHECKED_KINDS.has(node.kind)) return;
      const named = node as Named;
      const name = named.name.value;
      const owners = ancestors.filter((a): a is Named => !Array.isArray(a) && 'name' in (a as object));
      const path = [...owners.map((o) => o.name.value), name].join('.');
      if (TYPE_KINDS.has(node.kind)) {
        if (!described(named)) report('types-have-descriptions', `type ${path}`);
        if (!PASCAL_CASE.test(name)) report('types-are-capitalized', `type ${path}`);
      } else if (node.kind === Kind.FIELD_DEFINITION) {
        if (!described(named)) report('fields-have-descriptions', `field ${path}`);
        if (!CAMEL_CASE.test(name)) report('fields-are-camel-cased', `field ${path}`);
      } else if (node.kind === Kind.INPUT_VALUE_DEFINITION) {
        const inInput = owners.at(-1)?.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION;
        if (!described(named)) report(inInput ? 'input-object-values-have-descriptions' : 'arguments-have-descriptions', path);
        if (!CAMEL_CASE.test(name)) report(inInput ? 'input-object-values-are-camel-cased' : 'arguments-are-camel-cased', path);
      } else {
        if (!described(named)) report('enum-values-have-descriptions', `enum value ${path}`);
        if (name !== name.toUpperCase()) report('enum-values-all-caps', `enum value ${path}`);
      }
    },
  });
  return findings;
}
