import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

/**
 * The key that encrypts secrets at rest: SECRET_KEY, or one generated into the data folder on first start
 * (with a warning, since losing that file makes the stored secrets unreadable). Not on PostgreSQL: replicas on
 * several hosts would each generate their own.
 */
export function loadSecretKey(config: Config, logger: Logger): Buffer {
  if (config.secretKey) return decodeKey(config.secretKey);
  if (config.database.type === 'postgres') throw new Error(SECRET_KEY_REQUIRED);
  const path = join(config.dataDir, 'secret.key');
  if (existsSync(path)) return decodeKey(readFileSync(path, 'utf8').trim());
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  logger.warn({ path }, 'SECRET_KEY is unset: generated one into the data folder; back it up or set SECRET_KEY');
  return decodeKey(key);
}

const SECRET_KEY_REQUIRED =
  'SECRET_KEY must be set on PostgreSQL: every process of the deployment seals and opens secrets with that one key, ' +
  'and a key generated into each process’s data folder would differ between hosts. If this deployment ran with a ' +
  'generated key, set SECRET_KEY to the contents of that data/secret.key. See README, "Running several replicas".';

function decodeKey(text: string): Buffer {
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length < 32) throw new Error('SECRET_KEY must decode to at least 32 bytes');
  return key.subarray(0, 32);
}
