import type { ChangeEntry } from '../../entities/index.js';
import type { NewField } from '../../upstream/types.js';

export const DEFAULT_CHANGES_TABLE_NAME = 'Changes';

/**
 * The columns of the Changes table in a monitoring base: one per field of a change entry, the entry id first
 * (primary, and how a write interrupted by a crash is found again). Cells are written by field name.
 */
export const CHANGES_TABLE_FIELDS: NewField[] = [
  { name: 'Entry ID', type: 'singleLineText', description: 'The id of this change in basewatch' },
  { name: 'Occurred At', type: 'dateTime', options: { timeZone: 'utc', dateFormat: { name: 'iso' }, timeFormat: { name: '24hour' } } },
  { name: 'Event Type', type: 'singleLineText' },
  { name: 'Kind', type: 'singleLineText' },
  { name: 'Table ID', type: 'singleLineText' },
  { name: 'Table Name', type: 'singleLineText' },
  { name: 'Record ID', type: 'singleLineText', description: 'The record, or the field id for column events' },
  { name: 'Field IDs', type: 'multilineText', description: 'Fields touched, one per line' },
  { name: 'Source', type: 'singleLineText' },
  { name: 'User Email', type: 'email' },
  { name: 'User Name', type: 'singleLineText' },
  { name: 'Before', type: 'multilineText', description: 'JSON' },
  { name: 'After', type: 'multilineText', description: 'JSON' },
];

export const ENTRY_ID_FIELD = 'Entry ID';

/** The row of an entry in the Changes table; empty values are left out, as the platform stores them. */
export function changesTableRow(entry: ChangeEntry): Record<string, unknown> {
  const fieldIds = JSON.parse(entry.fieldIds) as string[];
  const row: Record<string, unknown> = {
    'Entry ID': String(entry.id),
    'Occurred At': entry.occurredAt.toISOString(),
    'Event Type': entry.eventType,
    Kind: entry.kind,
    'Table ID': entry.tableId,
    'Table Name': entry.tableName,
    'Record ID': entry.recordId,
    'Field IDs': fieldIds.length ? fieldIds.join('\n') : null,
    Source: entry.source,
    'User Email': entry.userEmail,
    'User Name': entry.userName,
    Before: capped(entry.beforeJson),
    After: capped(entry.afterJson),
  };
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null && value !== ''));
}

/** The platform's long-text cells hold 100,000 characters; the full value stays in the service's own log. */
const MAX_CELL_TEXT = 99_000;
const capped = (text: string | null) => (text && text.length > MAX_CELL_TEXT ? `${text.slice(0, MAX_CELL_TEXT)}…(truncated)` : text);
