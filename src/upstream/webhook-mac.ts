import { createHmac } from 'node:crypto';

/**
 * The X-Airtable-Content-MAC value of a ping: `hmac-sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes,
 * keyed by the base64-decoded secret (raw bytes, not a string). Pass the raw body as received; a string is
 * taken as UTF-8, which equals the platform's ASCII for its JSON pings.
 */
export function webhookMac(macSecretBase64: string, rawBody: Buffer | string): string {
  const key = Buffer.from(macSecretBase64, 'base64');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return `hmac-sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}
