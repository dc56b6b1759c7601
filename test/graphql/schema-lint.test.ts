import 'reflect-metadata';
import { GraphQLEnumType, assertEnumType, getNamedType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildGraphqlSchema, printGraphqlSchema } from '../../src/graphql/schema.js';
import { lintSchema } from './support/schema-lint.js';

const schema = await buildGraphqlSchema();

describe('the GraphQL schema, as graphql-schema-linter reads it', () => {
  it('has a description on every type, field, argument, input field and enum value, and conventional names', () => {
    expect(lintSchema(printGraphqlSchema(schema))).toEqual([]);
  });

  it('names enum values in ALL_CAPS while resolvers keep the services’ strings', () => {
    const valuesOf = (name: string) =>
      Object.fromEntries(
        assertEnumType(schema.getType(name))
          .getValues()
          .map((v) => [v.name, v.value]),
      );
    expect(valuesOf('ChangeSource')).toMatchObject({
      FORM_PAGE_SUBMISSION: 'formPageSubmission',
      PUBLIC_API: 'publicApi',
      UNKNOWN: 'unknown',
    });
    expect(valuesOf('ChangeEventType')).toMatchObject({ RECORD_UPDATE: 'record_update', COLUMN_CREATE: 'column_create' });
    expect(valuesOf('MonitoringScope')).toEqual({ ALL: 'all', SCHEMA_ONLY: 'schema_only', RECORDS_ONLY: 'records_only' });
    const enums = Object.values(schema.getTypeMap()).filter(
      (t): t is GraphQLEnumType => t instanceof GraphQLEnumType && !t.name.startsWith('__'),
    );
    expect(enums.length).toBeGreaterThanOrEqual(10);
  });

  it('types every upstream base id (`baseId`, `monitoringBaseId`: fields, arguments, input fields) as ID', () => {
    const found: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        const places: Array<{ name: string; key: string; type: GraphQLType }> = [
          { name: `${type.name}.${field.name}`, key: field.name, type: field.type },
        ];
        for (const arg of 'args' in field ? field.args : [])
          places.push({ name: `${type.name}.${field.name}(${arg.name})`, key: arg.name, type: arg.type });
        for (const place of places)
          if (/^(monitoring)?[bB]aseId$/.test(place.key)) found.push(`${place.name}: ${getNamedType(place.type).name}`);
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(12);
    expect(found.filter((place) => !place.endsWith(': ID'))).toEqual([]);
  });

  it('reports each rule it checks (the check itself works)', () => {
    const findings = lintSchema(`
      type query_root { Bad_field(arg_one: Int): Mood }
      input Filter { some_value: String }
      enum Mood { happy }
      scalar Day
    `);
    expect(findings).toEqual(
      expect.arrayContaining([
        'types-have-descriptions: type query_root',
        'types-are-capitalized: type query_root',
        'fields-have-descriptions: field query_root.Bad_field',
        'fields-are-camel-cased: field query_root.Bad_field',
        'arguments-have-descriptions: query_root.Bad_field.arg_one',
        'arguments-are-camel-cased: query_root.Bad_field.arg_one',
        'input-object-values-have-descriptions: Filter.some_value',
        'input-object-values-are-camel-cased: Filter.some_value',
        'enum-values-have-descriptions: enum value Mood.happy',
        'enum-values-all-caps: enum value Mood.happy',
        'types-have-descriptions: type Day',
      ]),
    );
  });
});
