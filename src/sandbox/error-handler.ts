import type { ErrorRequestHandler, RequestHandler } from 'express';
import { malformedJson, requestTooLarge, routeNotFound, SandboxError, serverError } from './sandbox-errors.js';

export const notFoundHandler: RequestHandler = (_req, _res, next) => next(routeNotFound());

/** Renders every failure as Airtable would; the app's own error format never leaks into the sandbox. */
export const sandboxErrorHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (res.headersSent) return next(error);
  const rendered = toSandboxError(error);
  res.status(rendered.status).json(rendered.body);
};

function toSandboxError(error: unknown): SandboxError {
  if (error instanceof SandboxError) return error;
  const { type, status } = typeof error === 'object' && error !== null ? (error as { type?: unknown; status?: unknown }) : {};
  if (type === 'entity.too.large') return requestTooLarge();
  // Any other body-parser failure (bad JSON, unsupported charset, ...) is the client's fault.
  if (typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500) return malformedJson();
  return serverError();
}
