import type { SchemaType } from './graphql.js';

type WebhookEvent = SchemaType<'WebhookEvent'>;
type ChangeSource = SchemaType<'ChangeSource'>;

/** The words a person reads for each event type (a change's, a webhook's, a delivery's). */
export const EVENT_NAMES: Record<WebhookEvent, string> = {
  RECORD_CREATE: 'Record created',
  RECORD_UPDATE: 'Record updated',
  RECORD_DELETE: 'Record deleted',
  COLUMN_CREATE: 'Field created',
  COLUMN_UPDATE: 'Field changed',
  COLUMN_DELETE: 'Field deleted',
  TABLE_CREATE: 'Table created',
  TABLE_UPDATE: 'Table changed',
  TABLE_DELETE: 'Table deleted',
  USAGE_THRESHOLD: 'Usage alert',
};

/** Where a change came from, as Airtable's own activity feed says it. */
export const SOURCE_NAMES: Record<ChangeSource, string> = {
  CLIENT: 'Airtable app',
  PUBLIC_API: 'API',
  PUBLIC_API_CALL: 'API',
  FORM_SUBMISSION: 'Form',
  FORM_PAGE_SUBMISSION: 'Form page',
  AUTOMATION: 'Automation',
  SYSTEM: 'Airtable (system)',
  SYNC: 'Sync',
  ANONYMOUS_USER: 'Anonymous user',
  UNKNOWN: 'Unknown source',
};

/** "1 table", "3 tables": a count with its noun in the right number (`plural` when not noun + s). */
export const plural = (count: number, noun: string, many = `${noun}s`) => `${count.toLocaleString()} ${count === 1 ? noun : many}`;

/** Whether the deployment talks to real Airtable (the page says so; in sandbox mode airtable.com links lead nowhere). */
export const realAirtable = () => document.querySelector('meta[name="basewatch-upstream"]')?.getAttribute('content') === 'airtable';
