export { SqliteBackend, type SqliteBackendOptions } from './sqlite-backend.js';
export { SqliteJobLogger } from './sqlite-job-logger.js';
export { SqliteJobRepository } from './sqlite-job.repository.js';
