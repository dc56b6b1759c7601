import type { Redis } from 'ioredis';
import type { Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Config } from './config.js';
import { localEventRelay, redisEventRelay, type EventRelay } from './graphql/event-relay.js';
import type { Logger } from './logger.js';
import { openRedis, redisAnswers } from './redis.js';
import type { EventHub } from './resolvers/support/event-hub.js';
import { claimSoleReplica, type SoleReplicaClaim } from './sole-replica.js';
import { processLimiter, type UpstreamLimiter } from './upstream/limiter.js';
import { RedisUpstreamLimiter } from './upstream/redis-limiter.js';

/**
 * What replicas must agree on beyond the database: the platform's budgets (per base, per user, the lock-out after a
 * 429), each API key's request budget, and the events subscriptions hear. With REDIS_URL it all lives in Redis and
 * any number of processes share it; without, it lives in this process, which must then be the only one on its
 * database (a second is refused on PostgreSQL; SQLite is one machine's file).
 */
export interface SharedState {
  upstreamLimiter: UpstreamLimiter;
  /** A store for the per-key request budget (express-rate-limit); none: this process's memory. */
  budgetStore(): Store | undefined;
  eventRelay(hub: EventHub): Promise<EventRelay>;
  /** For /readyz: false while Redis does not answer. */
  answers(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openSharedState(config: Config, logger: Logger): Promise<SharedState> {
  if (!config.redis) {
    const claim: SoleReplicaClaim | undefined = config.database.type === 'postgres' ? await claimSoleReplica(config.database.url) : undefined;
    return {
      upstreamLimiter: processLimiter,
      budgetStore: () => undefined,
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
  redis.on('ready', () => void (reported = false));
  return {
    upstreamLimiter: new RedisUpstreamLimiter(redis),
    budgetStore: () =>
      new RedisStore({
        // The connection puts its key prefix before the store's own.
        prefix: 'budget:',
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
    },
  };
}
