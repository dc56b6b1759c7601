import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { ERROR_STATUS, isAppError } from '../errors.js';
import { safeError, type Logger } from '../logger.js';

/** Apollo's codes for requests that could not be run as sent: the caller's mistake, `invalid_request` like REST's 400. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
]);

/**
 * Automatic persisted queries keep Apollo's codes: Apollo Client's persisted-query link sends the full query again on
 * PERSISTED_QUERY_NOT_FOUND (the hash is unknown to this process) and stops sending hashes on
 * PERSISTED_QUERY_NOT_SUPPORTED.
 */
const PERSISTED_QUERY_CODES = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED']);

/** Apollo's refusals that carry an HTTP 4xx but no code, said more plainly. */
const CODELESS_REQUEST_ERRORS: Record<string, string> = {
  'provided sha does not match query': 'The persistedQuery extension’s sha256Hash is not the SHA-256 of the query sent with it',
  'Unsupported persisted query version': 'Unsupported persisted query version: only version 1 is supported',
};

/**
 * graphql-js gives up validating a document that repeats fields or fragments past its work budget with a bare
 * "Validation aborted.": say what to change instead.
 */
export function requestErrorMessage(message: string): string {
  return message === 'Validation aborted.'
    ? 'Query refused: it repeats fields or fragment spreads too often to be validated; merge the repeated selections'
    : message;
}

export type ErrorFormatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * The one place GraphQL errors are shaped: an AppError keeps its message and CONTRACT code in `extensions.code`,
 * persisted-query misses keep Apollo's codes, request errors become `invalid_request`, anything else is logged (kind
 * and message, no stack) and answered as `internal` without details.
 */
export function createErrorFormatter(logger: Logger): ErrorFormatter {
  return (formatted, error) => {
    const where = {
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
    };
    const original = unwrapResolverError(error);
    if (isAppError(original)) {
      if (original.logContext) logger.warn({ ...original.logContext, code: original.code }, original.message);
      return { message: original.message, ...where, extensions: { code: original.code } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && (Object.hasOwn(ERROR_STATUS, code) || PERSISTED_QUERY_CODES.has(code))) {
      return { message: formatted.message, ...where, extensions: { code } };
    }
    if (typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) {
      return { message: requestErrorMessage(formatted.message), ...where, extensions: { code: 'invalid_request' } };
    }
    if (isCodelessClientError(error)) {
      return {
        message: CODELESS_REQUEST_ERRORS[formatted.message] ?? formatted.message,
        ...where,
        extensions: { code: 'invalid_request' },
      };
    }
    logger.error({ err: safeError(original), path: formatted.path }, 'GraphQL operation failed');
    return { message: 'Internal server error', ...where, extensions: { code: 'internal' } };
  };
}

/** Apollo's own refusal of the request as sent: an HTTP status of 4xx in its extensions, and no code. */
function isCodelessClientError(error: unknown): boolean {
  const extensions = (error as { extensions?: { code?: unknown; http?: { status?: unknown } } } | null)?.extensions;
  const status = extensions?.http?.status;
  return extensions?.code === undefined && typeof status === 'number' && status >= 400 && status < 500;
}
