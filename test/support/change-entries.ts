import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ChangeEntry, ChangeEntryField } from '../../src/entities/index.js';
import { kindOf, type ChangeEventType, type ChangeSource } from '../../src/services/audit/change-event.js';
import type { ChangeRecord } from '../../src/services/audit/change-row.js';
import { bumpChangeVersions } from '../../src/repositories/change-version.js';

export interface SeedChange {
  occurredAt: string;
  eventType?: ChangeEventType;
  tableId?: string;
  tableName?: string;
  recordId?: string | null;
  fieldIds?: string[];
  source?: ChangeSource;
  userEmail?: string | null;
  userName?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  monitoringRecordId?: string | null;
}

/** A logged change as GET …/changes answers it. */
export type LoggedChange = ChangeRecord;

/**
 * Writes change entries of a config straight through the repositories, as ingestion stores them (an entry, one
 * change_entry_field row per field id, the config's changes version bumped), in the given order, and returns them as
 * the endpoint should show them.
 */
export async function appendChanges(dataSource: DataSource, configId: string, changes: SeedChange[]): Promise<LoggedChange[]> {
  const logged: LoggedChange[] = [];
  await dataSource.transaction(async (manager) => {
    for (const change of changes) {
      const eventType = change.eventType ?? 'record_update';
      const fieldIds = change.fieldIds ?? [];
      const entry = await manager.save(ChangeEntry, {
        configId,
        occurredAt: new Date(change.occurredAt),
        eventType,
        kind: kindOf(eventType),
        tableId: change.tableId ?? 'tblAAAAAAAAAAAAAA',
        tableName: change.tableName ?? 'Products',
        recordId: change.recordId === undefined ? 'recAAAAAAAAAAAAAA' : change.recordId,
        fieldIds: JSON.stringify(fieldIds),
        source: change.source ?? 'client',
        userEmail: change.userEmail === undefined ? 'ada@example.com' : change.userEmail,
        userName: change.userName === undefined ? 'Ada' : change.userName,
        beforeJson: change.before ? JSON.stringify(change.before) : null,
        afterJson: change.after ? JSON.stringify(change.after) : null,
        monitoringRecordId: change.monitoringRecordId ?? null,
        position: `test:${randomUUID()}`,
        loggedAt: new Date(),
      });
      if (fieldIds.length > 0) {
        await manager.insert(
          ChangeEntryField,
          fieldIds.map((fieldId) => ({ entryId: entry.id, fieldId, configId, occurredAt: entry.occurredAt })),
        );
      }
      logged.push({
        id: String(entry.id),
        monitoringRecordId: entry.monitoringRecordId,
        occurredAt: entry.occurredAt.toISOString(),
        eventType,
        kind: entry.kind,
        tableId: entry.tableId,
        tableName: entry.tableName,
        recordId: entry.recordId,
        fieldIds,
        source: entry.source,
        userEmail: entry.userEmail,
        userName: entry.userName,
        before: change.before ?? null,
        after: change.after ?? null,
      });
    }
    await bumpChangeVersions(manager, [configId]);
  });
  return logged;
}

/** Newest first, ties by id descending: the order of the endpoint. */
export const newestFirst = (changes: LoggedChange[]) =>
  [...changes].sort((a, b) => (a.occurredAt === b.occurredAt ? Number(b.id) - Number(a.id) : a.occurredAt < b.occurredAt ? 1 : -1));

/** The i-th of a run of record updates one minute apart, on one table and field, by one user. */
export const sampleChange = (i: number, extraBefore: Record<string, unknown> = {}): SeedChange => ({
  occurredAt: new Date(Date.parse('2026-03-01T20:00:00.000Z') + i * 60_000).toISOString(),
  eventType: 'record_update',
  tableId: 'tblTABLE00000000A',
  recordId: `rec${String(i).padStart(14, '0')}`,
  fieldIds: ['fldFIELD0000000A'],
  source: 'client',
  userEmail: 'ada@example.com',
  before: { fldFIELD0000000A: `old ${i}`, ...extraBefore },
  after: { fldFIELD0000000A: `new ${i}` },
  monitoringRecordId: null,
});
