export interface UpstreamErrorDetails {
  type?: string;
  message?: string;
}

const MAX_MESSAGE_LENGTH = 500;

/**
 * Reads every error shape the platform is known to send: `{error:{type,message}}`, `{error:"NOT_FOUND"}` and the
 * rate-limit variant `{errors:[{error,message}]}`. Anything else (HTML from a proxy, empty bodies) yields nothing,
 * because such text is neither a stable type nor known to be safe to repeat.
 */
export function parseErrorBody(text: string): UpstreamErrorDetails {
  const body = parseJson(text);
  if (!isObject(body)) return {};

  const { error } = body;
  if (typeof error === 'string') return details(error, body.message);
  if (isObject(error)) return details(error.type ?? error.error, error.message);

  if (Array.isArray(body.errors) && isObject(body.errors[0])) {
    const first = body.errors[0];
    return details(first.error ?? first.type, first.message);
  }
  return {};
}

function details(type: unknown, message: unknown): UpstreamErrorDetails {
  return {
    type: typeof type === 'string' ? type : undefined,
    message: typeof message === 'string' ? message.slice(0, MAX_MESSAGE_LENGTH) : undefined,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
