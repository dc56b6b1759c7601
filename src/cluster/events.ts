import type { EventRelay } from '../graphql/event-relay.js';
import type { EventHub } from '../resolvers/support/event-hub.js';
import type { PrimaryChannel, WorkerChannel } from './ipc.js';

const PUBLISH = 'events.publish';
const DELIVER = 'events.deliver';

interface Message {
  topic: string;
  id: string;
  payload: unknown;
}

/** A worker's events go to the primary, which hands them to every worker's subscribers (this one's included). */
export function workerEventRelay(channel: WorkerChannel, hub: EventHub): EventRelay {
  channel.on(DELIVER, (message) => {
    const { topic, id, payload } = message as Message;
    hub.publish(topic, id, payload);
  });
  return { local: false, publish: (topic, id, payload) => channel.tell(PUBLISH, { topic, id, payload } satisfies Message), close: async () => {} };
}

/** The primary passes every worker's events to all workers, and its own (jobs: counts, ingestion) too. */
export function primaryEventRelay(channel: PrimaryChannel, hub: EventHub): EventRelay {
  channel.answer(PUBLISH, (message) => channel.tellAll(DELIVER, message));
  return {
    local: false,
    publish: (topic, id, payload) => {
      hub.publish(topic, id, payload);
      channel.tellAll(DELIVER, { topic, id, payload } satisfies Message);
    },
    close: async () => {},
  };
}
