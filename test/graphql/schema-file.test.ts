import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildGraphqlSchema, printGraphqlSchema } from '../../src/graphql/schema.js';
import { ROOT } from '../support/processes.js';

const schema = await buildGraphqlSchema();

describe('schema.graphql', () => {
  it('is the schema the code builds (run `npm run graphql:write` after changing resolvers)', () => {
    expect(readFileSync(join(ROOT, 'schema.graphql'), 'utf8')).toBe(printGraphqlSchema(schema));
  });

  it('describes every example operation in docs/graphql', () => {
    const folder = join(ROOT, 'docs/graphql');
    const files = readdirSync(folder).filter((name) => name.endsWith('.graphql'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const errors = validate(schema, parse(readFileSync(join(folder, file), 'utf8')));
      expect(
        errors.map((e) => e.message),
        file,
      ).toEqual([]);
    }
  });
});
