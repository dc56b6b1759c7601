import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, isAppError } from '../../errors.js';
import { safeError } from '../../logger.js';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Translates anything thrown into an AppError; unknown errors become `internal` after being logged. */
function toAppError(error: unknown, logger: Logger): AppError {
  if (isAppError(error)) return error;
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') return new AppError('invalid_request', 'Malformed JSON in request body');
  if (parserError?.type === 'entity.too.large') return new AppError('payload_too_large', 'Request body exceeds 1 MiB');
  if (parserError?.type?.startsWith('encoding.') || parserError?.type === 'charset.unsupported') {
    return new AppError('invalid_request', 'Unsupported request body encoding');
  }
  if (parserError?.status === 400) return new AppError('invalid_request', 'Malformed request');
  logger.error({ err: safeError(error) }, 'unhandled error');
  return new AppError('internal', 'Internal server error');
}

/** The one place REST failures are rendered: `{ message, code }`, the status of the code, and Retry-After. */
export function renderError(error: AppError, res: Response): void {
  if (error.retryAfterSeconds !== undefined && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(Math.ceil(error.retryAfterSeconds)));
  res.status(error.status).json({ message: error.message, code: error.code });
}

export function errorHandler(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(error, logger);
    if (appError.logContext) logger.warn({ ...appError.logContext, code: appError.code }, appError.message);
    if (res.headersSent) return void res.end();
    renderError(appError, res);
  };
}
