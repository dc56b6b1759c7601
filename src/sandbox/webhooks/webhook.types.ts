import type { NewWebhook, WebhookNotificationResult, WebhookPayload } from '../../upstream/webhook-types.js';
import type { ResolvedSpecification } from './webhook-specification.js';

export interface StoredPayload {
  cursor: number;
  /** Clock time it was made; retention counts from here. */
  createdAt: number;
  payload: WebhookPayload;
}

export interface StoredWebhook {
  id: string;
  baseId: string;
  notificationUrl: string | null;
  macSecretBase64: string;
  specification: NewWebhook['specification'];
  resolved: ResolvedSpecification;
  /** Clock time; the webhook is disabled from then on and forgotten a retention period later. */
  expiresAt: number;
  /** Set by an error payload; never cleared. */
  failed: boolean;
  areNotificationsEnabled: boolean;
  cursorForNextPayload: number;
  payloads: StoredPayload[];
  lastNotificationResult: WebhookNotificationResult | null;
  lastSuccessfulNotificationTime: string | null;
  /** WebhookOwner.key of the creator; absent: the demo user's PATs (DEFAULT_OWNER_KEY). */
  owner?: string;
}

export interface SandboxWebhookOptions {
  /** Wait before a ping, so changes made close together share one; default 100. */
  pingDelayMs?: number;
  /** A ping must be answered within this; default 25,000. */
  pingTimeoutMs?: number;
  /** The first retry of a failed ping waits this long, each next one twice as long; default 10,000. */
  retryBaseDelayMs?: number;
  /** Retries after the first attempt before notifications are turned off; default 13. */
  maxRetries?: number;
}
