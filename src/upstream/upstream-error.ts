import { AppError } from '../errors.js';

/** Types the client assigns itself when the upstream never sent a usable answer. */
export const TIMEOUT = 'TIMEOUT';
export const CONNECTION_ERROR = 'CONNECTION_ERROR';
export const INVALID_RESPONSE = 'INVALID_RESPONSE';
export const INVALID_TOKEN = 'INVALID_TOKEN';

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
      logContext: {
        method: failure.method,
        path: failure.path,
        status: failure.upstreamStatus,
        type: failure.upstreamType,
        upstreamMessage: failure.upstreamMessage,
        attempts: failure.attempts,
      },
    });
    this.name = 'UpstreamRequestError';
    this.upstreamStatus = failure.upstreamStatus;
    this.upstreamType = failure.upstreamType;
    this.upstreamMessage = failure.upstreamMessage;
    this.attempts = failure.attempts;
  }
}

export const isUpstreamRequestError = (error: unknown): error is UpstreamRequestError => error instanceof UpstreamRequestError;

/** The message callers see: what failed and how often, never the upstream's own text or the request path. */
function describe(failure: UpstreamFailure): string {
  const what = [failure.upstreamStatus, failure.upstreamType].filter((part) => part !== undefined).join(' ');
  const tries = failure.attempts === 1 ? '1 attempt' : `${failure.attempts} attempts`;
  return `The upstream platform failed (${what || 'unknown error'}) after ${tries}`;
}
