import { AppError } from '../errors.js';

/** Types the client assigns itself when the upstream never sent a usable answer. */
export const TIMEOUT = 'TIMEOUT';
export const CONNECTION_ERROR = 'CONNECTION_ERROR';
export const INVALID_RESPONSE = 'INVALID_RESPONSE';

export interface UpstreamFailure {
  method: string;
  /** URL path without the query string: the query can carry formulas and record ids, never needed to debug. */
  path: string;
  upstreamStatus?: number;
  upstreamType?: string;
  upstreamMessage?: string;
  attempts: number;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** A request to the platform that failed for good; surfaces to callers as 502 `upstream_error`. */
export class UpstreamRequestError extends AppError {
  readonly upstreamStatus?: number;
  readonly upstreamType?: string;
  readonly upstreamMessage?: string;
  readonly attempts: number;

  constructor(failure: UpstreamFailure) {
    super('upstream_error', describe(failure), {
      cause: failure.cause,
      retryAfterSeconds: failure.retryAfterSeconds,
    });
    this.name = 'UpstreamRequestError';
    this.upstreamStatus = failure.upstreamStatus;
    this.upstreamType = failure.upstreamType;
    this.upstreamMessage = failure.upstreamMessage;
    this.attempts = failure.attempts;
  }
}

export const isUpstreamRequestError = (error: unknown): error is UpstreamRequestError =>
  error instanceof UpstreamRequestError;

function describe(failure: UpstreamFailure): string {
  const what = [failure.upstreamStatus, failure.upstreamType].filter((part) => part !== undefined).join(' ');
  const detail = failure.upstreamMessage ? `: ${failure.upstreamMessage}` : '';
  const tries = failure.attempts === 1 ? '1 attempt' : `${failure.attempts} attempts`;
  return `Upstream ${failure.method} ${failure.path} failed (${what || 'unknown error'}) after ${tries}${detail}`;
}
