import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Once, here: every REST schema doubles as its OpenAPI description.
extendZodWithOpenApi(z);

export { z };
