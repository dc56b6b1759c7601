export const MAX_BACKOFF_MS = 30_000;
/** A Retry-After beyond this is not worth holding a caller for; the retry then fails fast instead. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** How far a failed attempt may be repeated. */
export type Repeatability =
  /** The upstream refused before doing anything (429, 502, 503, connection never made). */
  | 'safe'
  /** The upstream may have done the work (500, 504, timeout, connection dropped): fine to repeat reads, not creates. */
  | 'if-idempotent'
  | 'never';

const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The monthly API quota is used up: a 429 that waiting 30 s does not cure. */
const BILLING_LIMIT = 'PUBLIC_API_BILLING_LIMIT_EXCEEDED';

export function repeatabilityOfStatus(status: number, type?: string): Repeatability {
  if (type === BILLING_LIMIT) return 'never';
  if (status === 429 || status === 502 || status === 503) return 'safe';
  if (status === 500 || status === 504) return 'if-idempotent';
  return 'never';
}

export function repeatabilityOfNetworkError(code: string | undefined): Repeatability {
  return code !== undefined && CONNECT_ERRORS.has(code) ? 'safe' : 'if-idempotent';
}

export function mayRepeat(repeatability: Repeatability, idempotent: boolean): boolean {
  return repeatability === 'safe' || (repeatability === 'if-idempotent' && idempotent);
}

/** Exponential, capped, with "equal jitter": half the step is fixed so a retry never comes back instantly. */
export function backoffDelay(retry: number, baseDelayMs: number): number {
  const step = Math.min(MAX_BACKOFF_MS, baseDelayMs * 2 ** (retry - 1));
  return Math.round(step / 2 + (Math.random() * step) / 2);
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  const delay = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(delay)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(delay)));
}
