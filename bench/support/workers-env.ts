import { REDIS_URL } from './shared-services.js';

/** WEB_CONCURRENCY > 1 shares its state through Redis: this machine's, under a key prefix of the run's own. */
export function workersEnv(workers: number, redisPrefix: string): Record<string, string> {
  return workers > 1 ? { WEB_CONCURRENCY: String(workers), REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : { WEB_CONCURRENCY: '1' };
}
