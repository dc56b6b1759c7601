import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Logs carry an error's kind and message only: never its stack, the SQL and parameters a driver attaches, or headers. */
export function safeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) {
    // An error already turned into a plain object (`err: safeError(e)`, or pino's own serializer): its safe parts only.
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
      const { type, message, code, cause } = error as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries({ type, message, code, cause: cause === undefined ? undefined : safeError(cause) }).filter(
          ([, v]) => v !== undefined,
        ),
      );
    }
    return { message: String(error) };
  }
  const code = (error as { code?: unknown }).code;
  const result: Record<string, unknown> = { type: error.name, message: error.message };
  if (typeof code === 'string') result.code = code;
  if (error.cause !== undefined) result.cause = safeError(error.cause);
  return result;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'basewatch' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: safeError, error: safeError },
      redact: { paths: ['req.headers.authorization', '*.apiKey', '*.token', '*.secret'], censor: '[redacted]' },
    },
    destination,
  );
}
