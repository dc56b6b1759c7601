import { z } from 'zod';

/**
 * What an upstream token can be: RFC 6750's b64token, the only characters a bearer token may carry in an
 * `Authorization` header (Airtable's PATs, `pat` + 14 alphanumerics + `.` + 64 hex, are one). Anything else (spaces,
 * NUL and other control characters, characters above U+007F) could never be sent, so it is refused before any
 * request rather than retried against the upstream.
 */
export const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export const bearerToken = z
  .string()
  .min(1)
  .max(512)
  .regex(BEARER_TOKEN, 'must be a bearer token: letters, digits and - . _ ~ + / only (optionally ending in =)');
