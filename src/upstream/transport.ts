import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { requestSent } from './call-purpose.js';
import { parseErrorBody } from './error-body.js';
import { processLimiter, type UpstreamLimiter } from './limiter.js';
import { DEFAULT_LOCKOUT_MS, DEFAULT_REQUESTS_PER_SECOND, fingerprint, type RateLimitScope } from './rate-limiter.js';
import {
  backoffDelay,
  mayRepeat,
  parseRetryAfter,
  repeatabilityOfNetworkError,
  repeatabilityOfStatus,
  type Repeatability,
} from './retry-policy.js';
import type { TokenSource, UpstreamAttempt, UpstreamClientOptions, UpstreamLogger, UpstreamRequestSent, UpstreamStats } from './types.js';
import { CONNECTION_ERROR, INVALID_RESPONSE, INVALID_TOKEN, TIMEOUT, UpstreamRequestError } from './upstream-error.js';
import { sendInSlot } from './wire-instant.js';

export interface UpstreamCall<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below `/v0`, segments already encoded. */
  path: string;
  query?: string;
  body?: unknown;
  /** Spends this base's budget; without it only the token's. */
  baseId?: string;
  schema: z.ZodType<T>;
  /** False for creates: after a lost answer the write may have happened, so only clean refusals are retried. */
  idempotent?: boolean;
  /** Abandons the call (between attempts, or the request in flight) with the signal's reason. */
  signal?: AbortSignal;
}

interface AttemptFailure {
  status?: number;
  type?: string;
  message?: string;
  retryAfterMs?: number;
  repeatability: Repeatability;
  cause?: unknown;
}

type AttemptResult = { ok: true; text: string } | { ok: false; failure: AttemptFailure };

/** One HTTP exchange with the platform: rate limit, timeout, retries, error translation. */
export class UpstreamTransport {
  readonly stats: UpstreamStats = { requests: 0, retries: 0, rateLimited: 0 };
  private readonly apiBaseUrl: string;
  private readonly tokens: TokenSource;
  private readonly requestsPerSecond: number;
  private readonly lockoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly timeoutMs: number;
  private readonly logger?: UpstreamLogger;
  private readonly onAttempt?: (attempt: UpstreamAttempt) => void;
  private readonly onRequestSent?: (request: UpstreamRequestSent) => void;
  private readonly limiter: UpstreamLimiter;

  constructor(options: UpstreamClientOptions) {
    this.apiBaseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokens = typeof options.token === 'string' ? fixedToken(options.token) : options.token;
    this.requestsPerSecond = options.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND;
    this.lockoutMs = options.lockoutMs ?? DEFAULT_LOCKOUT_MS;
    this.maxRetries = options.maxRetries ?? 5;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.logger = options.logger;
    this.onAttempt = options.onAttempt;
    this.onRequestSent = options.onRequestSent;
    this.limiter = options.limiter ?? processLimiter;
  }

  /** Whose per-user budget this transport's requests spend. */
  get userKey(): string {
    return this.tokens.userKey;
  }

  url(path: string, query?: string): string {
    return `${this.apiBaseUrl}/v0${path}${query ? `?${query}` : ''}`;
  }

  async send<T>(call: UpstreamCall<T>): Promise<T> {
    const scope: RateLimitScope = {
      apiBaseUrl: this.apiBaseUrl,
      userKey: this.tokens.userKey,
      baseId: call.baseId,
      requestsPerSecond: this.requestsPerSecond,
    };
    let token = await this.tokens.current();
    let renewed = false;
    for (let attempt = 1; ; attempt += 1) {
      call.signal?.throwIfAborted();
      if (!isHeaderValue(`Bearer ${token.token}`)) {
        // fetch would refuse it before sending anything, every time: nothing to send, nothing to retry.
        const failure = { type: INVALID_TOKEN, message: 'the token cannot be sent in an HTTP header', repeatability: 'never' as const };
        throw this.toError(call, failure, attempt - 1);
      }
      const slot = await this.limiter.acquire(scope);
      if (call.signal?.aborted) slot.sent();
      call.signal?.throwIfAborted();
      this.stats.requests += 1;
      const purpose = requestSent();
      this.onRequestSent?.({ userKey: this.tokens.userKey, baseId: call.baseId, purpose });
      const result = await sendInSlot(slot, () => this.attempt(call, token.token));
      this.onAttempt?.({ method: call.method, path: call.path, outcome: outcomeOf(result) });
      if (result.ok) return this.parse(call, result.text, attempt);

      const { failure } = result;
      // A refused token is renewed once (an OAuth refresh, or the pair another process stored) and the call repeated:
      // the upstream did nothing with a request it did not authenticate.
      if (failure.status === 401 && !renewed && this.tokens.refused) {
        renewed = true;
        token = await this.tokens.refused(token.version);
        continue;
      }
      if (failure.status === 429) {
        this.stats.rateLimited += 1;
        this.limiter.lockOut(scope, Math.max(this.lockoutMs, failure.retryAfterMs ?? 0));
      }
      if (attempt > this.maxRetries || !mayRepeat(failure.repeatability, call.idempotent ?? true)) {
        throw this.toError(call, failure, attempt);
      }
      // After a 429 the lock-out is the wait; anything more would only leave budget unused.
      const delayMs = failure.status === 429 ? 0 : (failure.retryAfterMs ?? backoffDelay(attempt, this.retryBaseDelayMs));
      this.stats.retries += 1;
      this.logger?.warn(
        { method: call.method, path: call.path, status: failure.status, type: failure.type, attempt, delayMs },
        'Upstream request failed; retrying',
      );
      if (delayMs > 0) await sleep(delayMs, undefined, { signal: call.signal });
    }
  }

  private async attempt(call: UpstreamCall<unknown>, token: string): Promise<AttemptResult> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await fetch(this.url(call.path, call.query), {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        // Covers reading the body too, so a response that stalls halfway also times out.
        signal: call.signal ? AbortSignal.any([AbortSignal.timeout(this.timeoutMs), call.signal]) : AbortSignal.timeout(this.timeoutMs),
      });
      const text = await response.text();
      this.logger?.debug?.({ method: call.method, path: call.path, status: response.status }, 'Upstream response');
      if (response.ok) return { ok: true, text };
      return { ok: false, failure: statusFailure(response, text) };
    } catch (error) {
      call.signal?.throwIfAborted();
      return { ok: false, failure: this.exchangeFailure(error) };
    }
  }

  private exchangeFailure(error: unknown): AttemptFailure {
    if (error instanceof Error && error.name === 'TimeoutError') {
      const message = `no answer within ${this.timeoutMs} ms`;
      return { type: TIMEOUT, message, repeatability: 'if-idempotent', cause: error };
    }
    const code = networkErrorCode(error);
    return {
      type: CONNECTION_ERROR,
      message: code,
      repeatability: repeatabilityOfNetworkError(code),
      cause: error,
    };
  }

  private parse<T>(call: UpstreamCall<T>, text: string, attempts: number): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = call.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const message = 'the response body has an unexpected shape';
    throw this.toError(call, { status: 200, type: INVALID_RESPONSE, message, repeatability: 'never' }, attempts);
  }

  private toError(call: UpstreamCall<unknown>, failure: AttemptFailure, attempts: number): UpstreamRequestError {
    const retryAfterMs = failure.status === 429 ? Math.max(this.lockoutMs, failure.retryAfterMs ?? 0) : failure.retryAfterMs;
    return new UpstreamRequestError({
      method: call.method,
      path: `/v0${call.path}`,
      upstreamStatus: failure.status,
      upstreamType: failure.type,
      upstreamMessage: failure.message,
      attempts,
      retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
      cause: failure.cause,
    });
  }
}

/** RFC 9110 field-value: visible ASCII, obs-text and inner spaces or tabs; no control characters, nothing above U+00FF. */
const isHeaderValue = (value: string) => /^[\x21-\x7e\x80-\xff]([\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/.test(value);

function outcomeOf(result: AttemptResult): UpstreamAttempt['outcome'] {
  if (result.ok) return 'ok';
  return result.failure.status === 429 ? 'rate_limited' : 'error';
}

function statusFailure(response: Response, text: string): AttemptFailure {
  const { type, message } = parseErrorBody(text);
  return {
    status: response.status,
    type,
    message,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    repeatability: repeatabilityOfStatus(response.status, type),
  };
}

/** fetch reports network trouble as `TypeError('fetch failed')` with the system error as its cause. */
function networkErrorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A token that never changes (the deployment's own, or the sandbox's): a refusal is final. */
function fixedToken(token: string): TokenSource {
  const current = { token, version: 0 };
  return { userKey: `token:${fingerprint(token)}`, current: async () => current };
}
