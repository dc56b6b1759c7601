import type { Redis } from 'ioredis';
import type { Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Config } from './config.js';
import { localEventRelay, redisEventRelay, type EventRelay } from './graphql/event-relay.js';
import type { Logger } from './logger.js';
import { openRedis, redisAnswers } from './redis.js';
import type { EventHub } from './resolvers/support/event-hub.js';
import { claimReplicaMode } from './sole-replica.js';
import { processLimiter, type UpstreamLimiter } from './upstream/limiter.js';
import { RedisUpstreamLimiter } from './upstream/redis-limiter.js';

/**
 * What replicas must agree on beyond the database: the platform's budgets (per base, per user, the lock-out after a
 * 429), each account's request budget, and the events subscriptions hear. With REDIS_URL it all lives in Redis and
 * any number of processes share it (replicas, and the workers of WEB_CONCURRENCY, which needs it); without, it lives in
 * this process, which must then be the only one on its database. On PostgreSQL a second process without Redis is
 * refused, and so is one that mixes modes with those running (sole-replica.ts).
 */
export interface SharedState {
  upstreamLimiter: UpstreamLimiter;
  /** A store for a request limit (express-rate-limit) under its own key prefix; none: this process's memory. */
  limitStore(prefix: string): Store | undefined;
  eventRelay(hub: EventHub): Promise<EventRelay>;
  /** For /readyz: false while Redis does not answer. */
  answers(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openSharedState(config: Config, logger: Logger): Promise<SharedState> {
  const claim = config.database.type === 'postgres' ? await claimReplicaMode(config.database.url, config.redis !== undefined) : undefined;
  if (!config.redis) {
    return {
      upstreamLimiter: processLimiter,
      limitStore: () => undefined,
      eventRelay: async (hub) => localEventRelay(hub),
      answers: async () => true,
      close: async () => claim?.release(),
    };
  }
  const { keyPrefix } = config.redis;
  const redis = openRedis(config.redis, 'state');
  const subscribers: Redis[] = [];
  const log = logger.child({ component: 'redis' });
  let reported = false;
  redis.on('error', (error: Error) => {
    // ioredis retries on its own; one line per outage, not one per attempt.
    if (!reported) log.warn({ err: { message: error.message } }, 'Redis unreachable; retrying');
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  return {
    upstreamLimiter: new RedisUpstreamLimiter(redis),
    limitStore: (prefix) =>
      new RedisStore({
        // The connection puts its key prefix before the store's own.
        prefix,
        sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<number>,
      }),
    eventRelay: async (hub) => {
      const subscriber = openRedis(config.redis!, 'events');
      subscriber.on('error', () => undefined);
      subscribers.push(subscriber);
      return redisEventRelay(hub, redis, subscriber, keyPrefix);
    },
    answers: () => redisAnswers(redis),
    close: async () => {
      for (const subscriber of subscribers) subscriber.disconnect();
      await redis.quit().catch(() => redis.disconnect());
      await claim?.release();
    },
  };
}
