import cluster from 'node:cluster';
import type { UpstreamLimiter } from '../upstream/limiter.js';
import type { RateLimitScope } from '../upstream/rate-limiter.js';
import { Slot } from '../upstream/sliding-window.js';
import type { PrimaryChannel, WorkerChannel } from './ipc.js';

const ACQUIRE = 'limiter.acquire';
const SENT = 'limiter.sent';
const LOCK_OUT = 'limiter.lockOut';

/** A worker's limiter: every place comes from the primary's windows, which the primary's own requests use too. */
export function workerLimiter(channel: WorkerChannel): UpstreamLimiter {
  return {
    acquire: async (scope) => {
      const { slotId } = await channel.ask<{ slotId: number }>(ACQUIRE, scope);
      // The primary's windows count it from when it left (one host, one clock).
      return new Slot((at) => channel.tell(SENT, { slotId, at }));
    },
    lockOut: (scope, lockoutMs) => channel.tell(LOCK_OUT, { scope, lockoutMs }),
  };
}

/** The primary grants its workers places in its own windows (`limiter`), and frees those a dead worker held. */
export function serveLimiter(channel: PrimaryChannel, limiter: UpstreamLimiter): void {
  let nextId = 1;
  const slots = new Map<number, { slot: Slot; workerId: number }>();
  channel.answer(ACQUIRE, async (payload, worker) => {
    const slot = await limiter.acquire(payload as RateLimitScope);
    const slotId = nextId++;
    slots.set(slotId, { slot, workerId: worker.id });
    return { slotId };
  });
  channel.answer(SENT, (payload) => {
    const { slotId, at } = payload as { slotId: number; at: number };
    slots.get(slotId)?.slot.sent(at);
    slots.delete(slotId);
  });
  channel.answer(LOCK_OUT, (payload) => {
    const { scope, lockoutMs } = payload as { scope: RateLimitScope; lockoutMs: number };
    limiter.lockOut(scope, lockoutMs);
  });
  // A place held by a worker that died counts from now: its request may have left just before.
  cluster.on('exit', (worker) => {
    for (const [slotId, held] of slots) {
      if (held.workerId !== worker.id) continue;
      held.slot.sent();
      slots.delete(slotId);
    }
  });
}
