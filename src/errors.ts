/** The one error type of the service. Every failure that reaches a caller is an AppError with a code from CONTRACT §1. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  csrf_failed: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  upstream_not_connected: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  cause?: unknown;
  /** Seconds a caller should wait before trying again (sent as `Retry-After`). */
  retryAfterSeconds?: number;
  /** Details for the log line of this failure, never for the caller (e.g. the upstream's own message). */
  logContext?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds?: number;
  readonly logContext?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.logContext = options.logContext;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const invalidRequest = (message: string) => new AppError('invalid_request', message);
export const unauthorized = (message = 'Missing or invalid API key') => new AppError('unauthorized', message);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const conflict = (message: string) => new AppError('conflict', message);
/** The account's upstream connection lacks the scope or permission the work needs. */
export const forbidden = (message: string) => new AppError('forbidden', message);
/** A base the caller's connection does not see: the same answer whether it exists elsewhere or not at all (CONTRACT §8). */
export const upstreamBaseNotFound = (baseId: string) =>
  new AppError('not_found', `Upstream base ${baseId} not found for this account's connection`);
export const upstreamNotConnected = (
  message = 'This account has no upstream connection: connect one with PUT /connection (a personal access token) or POST /connection/oauth/start',
) => new AppError('upstream_not_connected', message);
export const unavailable = (message = 'The service is not ready') => new AppError('unavailable', message);

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
