import { AsyncLocalStorage } from 'node:async_hooks';

/** Why the service calls the upstream: what the API-call ledger sorts each request by. */
export const CALL_PURPOSES = ['count', 'audit', 'webhooks', 'helpers'] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/** Requests sent inside one `withCallPurpose`, attempts (retries, 429s) included. */
export interface CallTally {
  calls: number;
}

interface PurposeFrame {
  purpose: CallPurpose;
  tally?: CallTally;
  outer?: PurposeFrame;
}

const frames = new AsyncLocalStorage<PurposeFrame>();

/**
 * Runs `work` with every upstream request it sends (in its async context, however deep) tagged `purpose`, and
 * counted on `tally` when given. Nested, the innermost purpose tags a request and every enclosing tally counts it.
 * Requests sent outside any purpose are `helpers`.
 */
export function withCallPurpose<T>(purpose: CallPurpose, work: () => T, tally?: CallTally): T {
  return frames.run({ purpose, tally, outer: frames.getStore() }, work);
}

/** The transport's note of one request going out: counted on the enclosing tallies; returns its purpose. */
export function requestSent(): CallPurpose {
  const innermost = frames.getStore();
  for (let frame = innermost; frame; frame = frame.outer) if (frame.tally) frame.tally.calls += 1;
  return innermost?.purpose ?? 'helpers';
}
