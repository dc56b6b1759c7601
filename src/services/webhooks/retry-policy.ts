import type { SendResult } from './http-sender.js';

export type AttemptOutcome =
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver asks for the webhook to stop. */
  | { kind: 'gone' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' };

/** The longest a receiver's Retry-After can hold a delivery back. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Only a 2xx succeeds. 408, 429, 5xx, time-outs and connection failures are retried after the schedule's next
 * delay (or the receiver's Retry-After, when that is longer); once the schedule is used up the delivery fails.
 * Other answers (3xx, 4xx) will not get better by repeating the same request: the delivery fails at once.
 */
export function outcomeOf(result: SendResult, retryStep: number, scheduleMs: number[]): AttemptOutcome {
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'gone' };
  const retryable = status === null || status === 408 || status === 429 || status >= 500;
  if (!retryable || retryStep >= scheduleMs.length) return { kind: 'failed' };
  const retryAfter = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
  return { kind: 'retry', delayMs: Math.max(scheduleMs[retryStep]!, retryAfter) };
}
