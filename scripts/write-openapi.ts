import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/rest/openapi.js';

// openapi.json is committed; a test fails when it drifts from the routes' schemas.
writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
