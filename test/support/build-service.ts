import { builtServiceMain } from './built-service.js';

/** Builds the service as the process tier uses it (built-service.ts), for early-build.ts. */
await builtServiceMain();
