import { Redis } from 'ioredis';

export interface RedisSettings {
  url: string;
  /** Put before every key, so that deployments (and tests) sharing a server keep apart. */
  keyPrefix: string;
}

/**
 * A connection for the state replicas share (upstream limiters, request budgets, events). Commands wait while it
 * reconnects, so a short outage delays work instead of failing it; `ready()` tells the health check.
 */
export function openRedis({ url, keyPrefix }: RedisSettings, name: string): Redis {
  return new Redis(url, { keyPrefix, connectionName: `basewatch-${name}`, maxRetriesPerRequest: null, enableAutoPipelining: true });
}

/** Whether Redis answers now (for /readyz). */
export async function redisAnswers(redis: Redis, timeoutMs = 1_000): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, timeoutMs, false).unref());
  return Promise.race([
    redis.ping().then(
      (answer) => answer === 'PONG',
      () => false,
    ),
    timeout,
  ]);
}
