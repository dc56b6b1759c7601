import { EventEmitter } from 'node:events';
import type { PubSub } from 'type-graphql';
import { eventStream } from './event-stream.js';

/**
 * In-process publish/subscribe for GraphQL subscriptions, keyed by topic and object id (`snapshotRecorded` + usage
 * base id). The gateway feeds it from the services' listeners; subscription resolvers read it after their access check.
 */
export class EventHub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(topic: string, id: unknown, payload: unknown): void {
    this.emitter.emit(`${topic}:${String(id)}`, payload);
  }

  /** Whether anyone listens, so a feed can skip preparing payloads nobody reads. */
  hasSubscribers(topic: string, id: unknown): boolean {
    return this.emitter.listenerCount(`${topic}:${String(id)}`) > 0;
  }

  subscribe<T = unknown>(topic: string, id: unknown): AsyncIterableIterator<T> {
    const name = `${topic}:${String(id)}`;
    return eventStream<T>((push) => {
      this.emitter.on(name, push);
      return () => this.emitter.off(name, push);
    });
  }
}

/** Topics and their payloads. */
export const SNAPSHOT_RECORDED = 'snapshotRecorded';
export const CHANGE_LOGGED = 'changeLogged';
export const DELIVERY_ATTEMPTED = 'deliveryAttempted';
