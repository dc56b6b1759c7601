import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';

/**
 * The reference Standard Webhooks verifier (the `standardwebhooks` package, not the service's signer): the
 * signature over `${webhook-id}.${webhook-timestamp}.${body}`, any of the `v1,` entries, a timestamp within 5 minutes.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const flat = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
  try {
    new Webhook(secret).verify(body, flat);
    return true;
  } catch {
    return false;
  }
}
