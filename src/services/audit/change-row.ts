import { RawJson } from '../raw-json.js';
import type { ChangePosition } from './change-position.js';
import type { ChangeEvent, ChangeEventType, ChangeKind, ChangeSource } from './change-event.js';

/** One change_entry row as read (repositories/raw-rows.ts): CHANGE_COLUMNS' values (repositories/change-page-sql.ts), then any column a query adds after them. */
export type ChangeRow = unknown[];

/** One logged change, exactly as GET …/changes answers it (CONTRACT §3): the event as stored, with its ids. */
export type ChangeRecord = Omit<ChangeEvent, 'occurredAt' | 'position'> & {
  id: string;
  monitoringRecordId: string | null;
  occurredAt: string;
};

type Text = string | null;

/** Where a row stands in page order (a cursor's position), read without parsing its JSON columns. */
export function positionOf(row: ChangeRow): ChangePosition {
  const [id, , occurredAt] = row;
  return { occurredAt: occurredAt as string, id: Number(id) };
}

export function toChangeRecord(row: ChangeRow): ChangeRecord {
  const [
    id,
    monitoringRecordId,
    occurredAt,
    eventType,
    kind,
    tableId,
    tableName,
    recordId,
    fieldIds,
    source,
    userEmail,
    userName,
    before,
    after,
  ] = row;
  return {
    id: String(id),
    monitoringRecordId: monitoringRecordId as Text,
    occurredAt: occurredAt as string,
    eventType: eventType as ChangeEventType,
    kind: kind as ChangeKind,
    tableId: tableId as string,
    tableName: tableName as string,
    recordId: recordId as Text,
    fieldIds: JSON.parse(fieldIds as string) as string[],
    source: source as ChangeSource,
    userEmail: userEmail as Text,
    userName: userName as Text,
    before: before === null ? null : (JSON.parse(before as string) as Record<string, unknown>),
    after: after === null ? null : (JSON.parse(after as string) as Record<string, unknown>),
  };
}

/**
 * The JSON text of JSON.stringify(toChangeRecord(row)), without parsing the stored JSON columns: field_ids,
 * before_json and after_json were written by JSON.stringify (change-ingest.service.ts), so they are spliced in as
 * they are.
 */
export function changeRecordJson(row: ChangeRow): string {
  const [
    id,
    monitoringRecordId,
    occurredAt,
    eventType,
    kind,
    tableId,
    tableName,
    recordId,
    fieldIds,
    source,
    userEmail,
    userName,
    before,
    after,
  ] = row;
  const text = JSON.stringify;
  return (
    `{"id":${text(String(id))},"monitoringRecordId":${text(monitoringRecordId)},"occurredAt":${text(occurredAt)},` +
    `"eventType":${text(eventType)},"kind":${text(kind)},"tableId":${text(tableId)},"tableName":${text(tableName)},` +
    `"recordId":${text(recordId)},"fieldIds":${fieldIds as string},"source":${text(source)},"userEmail":${text(userEmail)},` +
    `"userName":${text(userName)},"before":${(before as Text) ?? 'null'},"after":${(after as Text) ?? 'null'}}`
  );
}

/**
 * A window of a config's changes as read: its rows, and each form a reader asks for (the records GraphQL resolves, the
 * JSON REST writes), made once. Kept in the read-model cache and shared: never changed.
 */
export class ChangeRows {
  private made?: ChangeRecord[];
  private rendered?: { count: number; json: RawJson };

  constructor(readonly rows: ChangeRow[]) {}

  records(): ChangeRecord[] {
    this.made ??= this.rows.map(toChangeRecord);
    return this.made;
  }

  /** The first `count` rows as one JSON array, for a response. */
  json(count: number): RawJson {
    if (this.rendered?.count !== count)
      this.rendered = { count, json: new RawJson(`[${this.rows.slice(0, count).map(changeRecordJson).join(',')}]`) };
    return this.rendered.json;
  }

  /** Its size in memory, estimated: the rows' text about three times (as read, as records, as JSON). */
  get bytes(): number {
    let text = 0;
    for (const row of this.rows) for (const value of row) text += typeof value === 'string' ? value.length : 8;
    return 3 * text + 200 * this.rows.length;
  }
}
