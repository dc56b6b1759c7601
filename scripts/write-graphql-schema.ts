import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildGraphqlSchema, printGraphqlSchema } from '../src/graphql/schema.js';

/** Writes schema.graphql from the type-graphql classes (`npm run graphql:write`); a test fails when it drifts. */
const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
writeFileSync(target, printGraphqlSchema(await buildGraphqlSchema()));
process.stdout.write(`wrote ${target}\n`);
