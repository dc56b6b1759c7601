import type { Redis } from 'ioredis';
import type { EventHub } from '../resolvers/support/event-hub.js';

/**
 * Carries the services' events to the subscriptions of every process: straight into this process's hub, or, with
 * Redis, through one pub/sub channel that every replica's hub listens to (its own messages included), so a client
 * subscribed on replica A hears of a change ingested by replica B.
 */
export interface EventRelay {
  publish(topic: string, id: string, payload: unknown): void;
  /** Whether events published here may reach subscribers in this process only (it can then skip unheard ones). */
  readonly local: boolean;
  close(): Promise<void>;
}

export function localEventRelay(hub: EventHub): EventRelay {
  return { local: true, publish: (topic, id, payload) => hub.publish(topic, id, payload), close: async () => {} };
}

interface Message {
  topic: string;
  id: string;
  payload: unknown;
}

/** Events through Redis pub/sub. `subscriber` is a connection of its own: a subscribed connection does nothing else. */
export async function redisEventRelay(hub: EventHub, publisher: Redis, subscriber: Redis, channelPrefix: string): Promise<EventRelay> {
  // Channels are not keys: the connection's key prefix does not apply to them.
  const channel = `${channelPrefix}events`;
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    hub.publish(message.topic, message.id, message.payload);
  });
  await subscriber.subscribe(channel);
  return {
    local: false,
    // At most once, as pub/sub is: a subscriber that was disconnected catches up by querying (the audit log is kept).
    publish: (topic, id, payload) =>
      void publisher.publish(channel, JSON.stringify({ topic, id, payload } satisfies Message)).catch(() => undefined),
    close: async () => {
      await subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}
