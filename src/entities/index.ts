import { Account } from './account.entity.js';
import { ApiKey } from './api-key.entity.js';
import { UsageBase } from './usage-base.entity.js';
import { UsageRun } from './usage-run.entity.js';
import { UsageSnapshot } from './usage-snapshot.entity.js';

export { Account, ApiKey, UsageBase, UsageRun, UsageSnapshot };
export type { UsageRunStatus } from './usage-run.entity.js';
export type { TableCount } from './usage-snapshot.entity.js';

export const entities = [Account, ApiKey, UsageBase, UsageRun, UsageSnapshot];
