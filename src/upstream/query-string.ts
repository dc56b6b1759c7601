/**
 * Encodes parameters the way the official client does (jQuery.param style): arrays of scalars as `key[]=v`,
 * arrays of objects as `key[i][prop]=v`, spaces as `+`. Undefined values are left out.
 */
export function toQueryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) addParam(parts, key, value);
  return parts.join('&').replace(/%20/g, '+');
}

function addParam(parts: string[], key: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const isScalar = typeof item !== 'object' || item === null;
      addParam(parts, isScalar ? `${key}[]` : `${key}[${index}]`, item);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [prop, item] of Object.entries(value)) addParam(parts, `${key}[${prop}]`, item);
  } else {
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value ?? ''))}`);
  }
}
