import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Slot } from './sliding-window.js';

/**
 * Tells each rate-limit slot when its request went on the wire, from the HTTP client's own diagnostics channels
 * (undici, which runs `fetch`): `request:create` fires in the caller's async context, which carries the slot, and
 * `client:sendHeaders` fires when the request is written to its socket.
 */
const slotOfCaller = new AsyncLocalStorage<Slot>();
const slotOfRequest = new WeakMap<object, Slot>();

diagnosticsChannel.subscribe('undici:request:create', (message) => {
  const slot = slotOfCaller.getStore();
  const request = (message as { request?: object }).request;
  if (slot !== undefined && request !== undefined) slotOfRequest.set(request, slot);
});

diagnosticsChannel.subscribe('undici:client:sendHeaders', (message) => {
  const request = (message as { request?: object }).request;
  if (request !== undefined) slotOfRequest.get(request)?.sent();
});

/**
 * Runs one HTTP exchange in `slot`. Should the channels stay silent (another HTTP client, a request that never
 * left), the slot counts from the end of the exchange: later than the request can have arrived, so never too early.
 */
export async function sendInSlot<T>(slot: Slot, exchange: () => Promise<T>): Promise<T> {
  try {
    return await slotOfCaller.run(slot, exchange);
  } finally {
    slot.sent();
  }
}
