import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, isAppError } from '../errors.js';
import { safeError } from '../logger.js';

interface BodyParserError {
  type?: string;
  status?: number;
  /** The raw text, on parse failures. */
  body?: unknown;
}

/** The strict JSON parser refuses valid JSON whose top level is not an object or array (`null`, `"text"`, 42). */
function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Translates anything thrown into an AppError; unknown errors become `internal` after being logged. */
function toAppError(error: unknown, logger: Logger): AppError {
  if (isAppError(error)) return error;
  const parserError = error as BodyParserError;
  if (parserError?.type === INVALID_UTF8) return new AppError('invalid_request', 'Request body is not valid UTF-8');
  if (parserError?.type === 'entity.parse.failed') {
    return new AppError(
      'invalid_request',
      isJson(parserError.body) ? 'The request body must be a JSON object' : 'Malformed JSON in request body',
    );
  }
  if (parserError?.type === 'entity.too.large') return new AppError('payload_too_large', 'Request body exceeds 1 MiB');
  if (parserError?.type?.startsWith('encoding.') || parserError?.type === 'charset.unsupported') {
    return new AppError('invalid_request', 'Unsupported request body encoding');
  }
  // The router's decoding of a path parameter.
  if (error instanceof URIError && parserError.status === 400)
    return new AppError('invalid_request', 'The URL path is not valid percent-encoding');
  if (parserError?.status === 400) return new AppError('invalid_request', 'Malformed request');
  logger.error({ err: safeError(error) }, 'unhandled error');
  return new AppError('internal', 'Internal server error');
}

/**
 * The one place failures outside a handler are rendered: `{ message, code }`, the status of the code, and
 * Retry-After. A request to /graphql gets the same message and code in GraphQL's shape (`errors[].extensions.code`),
 * which its clients read, whatever stopped it (body too large, malformed, budget spent, shutting down).
 */
export function renderError(error: AppError, res: Response): void {
  if (error.retryAfterSeconds !== undefined && !res.hasHeader('Retry-After'))
    res.setHeader('Retry-After', String(Math.ceil(error.retryAfterSeconds)));
  res.status(error.status);
  if (res.req.path === '/graphql') return void res.json({ errors: [{ message: error.message, extensions: { code: error.code } }] });
  res.json({ message: error.message, code: error.code });
}

const INVALID_UTF8 = 'encoding.invalid_utf8';

/**
 * body-parser's `verify` hook for JSON bodies: JSON is UTF-8 (RFC 8259), and the decoder would silently store
 * U+FFFD for every invalid byte sequence.
 */
export function requireUtf8(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() === 'utf-8' && !isUtf8(body)) throw invalidUtf8Error();
}

export const invalidUtf8Error = () => Object.assign(new Error('invalid UTF-8'), { type: INVALID_UTF8 });

/** What body-parser's strict JSON parser fails with: its `body` tells malformed JSON from a top level that is not an object. */
export const jsonParseError = (text: string) =>
  Object.assign(new Error('invalid JSON body'), { type: 'entity.parse.failed', status: 400, body: text });

export function errorHandler(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(error, logger);
    if (appError.logContext) logger.warn({ ...appError.logContext, code: appError.code }, appError.message);
    if (res.headersSent) return void res.end();
    renderError(appError, res);
  };
}
