import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function createSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded part after `whsec_`. */
function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The Standard Webhooks headers of one attempt; every secret given signs (space-separated signatures). */
export function signedHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, id, timestampSeconds, body)).join(' '),
  };
}
