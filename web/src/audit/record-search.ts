import { useEffect, useState } from 'preact/hooks';
import { useQuery } from '../graphql-hooks.js';
import { graphql } from '../graphql.js';
import type { SchemaNames } from './schema-names.js';

/** A record to pick from: its id, and what the list shows ("Acme Ltd (Suppliers)"). */
export interface KnownRecord {
  id: string;
  label: string;
}

const FIND_RECORDS = graphql(`
  query FindRecords($id: ID!, $search: String!, $tableId: String) {
    monitoringConfig(id: $id) {
      id
      mirroredRecords(search: $search, tableId: $tableId, first: 20) { recordId tableId primaryValue }
    }
  }
`);

/** How long typing pauses before the mirror is asked, and how much must be typed. */
const DEBOUNCE_MS = 250;
const MIN_CHARS = 2;
const TABLE_ID = /^tbl[A-Za-z0-9]{14}$/;

/** What the record list shows for a record: its primary field's value and its table (its id when it has no value). */
export const recordLabel = (value: string, tableName: string | undefined) => (tableName ? `${value} (${tableName})` : value);

/**
 * The records of the config's mirror whose primary field's value contains what is typed (or whose id starts with it),
 * asked for once typing pauses for 250 ms with at least 2 characters, within the table picked when there is one.
 * Text that is a label already listed (a pick) is not searched. Without a mirror, or while it seeds, the answer is
 * an error the caller never sees: no matches, and the list keeps what the page has seen.
 */
export function useRecordSearch(
  configId: string,
  text: string,
  listed: (label: string) => boolean,
  names: SchemaNames | null,
  tableId: string | undefined,
): KnownRecord[] {
  const [search, setSearch] = useState('');
  const typed = text.trim();
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.length >= MIN_CHARS && !listed(typed) ? typed : ''), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const { data } = useQuery(FIND_RECORDS, {
    variables: { id: configId, search, tableId: tableId && TABLE_ID.test(tableId) ? tableId : null },
    skip: !search,
  });
  // The last answer stays while the next is asked for, so the list does not empty under the cursor.
  const [matches, setMatches] = useState<KnownRecord[]>([]);
  useEffect(() => {
    const found = data?.monitoringConfig?.mirroredRecords;
    if (!found) return;
    setMatches(
      found.map((record) => ({
        id: record.recordId,
        label: record.primaryValue ? recordLabel(record.primaryValue, names?.table(record.tableId)?.name) : record.recordId,
      })),
    );
  }, [data]);
  return search ? matches : [];
}

/** Records by id, the first of each id kept; a label two records share names each by its id too, so a pick is one. */
export function mergeRecords(...lists: KnownRecord[][]): KnownRecord[] {
  const byId = new Map<string, KnownRecord>();
  for (const record of lists.flat()) if (!byId.has(record.id)) byId.set(record.id, record);
  const labels = new Map<string, number>();
  for (const record of byId.values()) labels.set(record.label, (labels.get(record.label) ?? 0) + 1);
  return [...byId.values()].map((record) =>
    (labels.get(record.label) ?? 0) > 1 && record.label !== record.id ? { ...record, label: `${record.label} · ${record.id}` } : record,
  );
}
