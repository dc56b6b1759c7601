import { useQuery } from '../graphql-hooks.js';
import { useEffect } from 'preact/hooks';
import { graphql, type ResultOf } from '../graphql.js';

/** The mirror's state and the names of its tables and fields: every mirror page reads it (one query, cached). */
export const MIRROR_NAMES = graphql(`
  query MirrorNames($id: ID!) {
    monitoringConfig(id: $id) {
      id baseName
      mirror {
        status seededAt continuousSince
        tables { tableId tableName recordCount primaryFieldId fields { fieldId name type } }
      }
    }
  }
`);
export type MirrorInfo = NonNullable<ResultOf<typeof MIRROR_NAMES>['monitoringConfig']>['mirror'];
type MirrorTable = MirrorInfo['tables'][number];

/** Names for the ids of a mirrored base: tables, fields (unique in a base), and a record by its primary value. */
export interface MirrorNames {
  tables: MirrorTable[];
  table(tableId: string): MirrorTable | undefined;
  /** The field's name; undefined when the mirror's schema no longer has it (deleted) or is not read yet. */
  field(fieldId: string): string | undefined;
  /** Field ids in the table's order, unknown ones (deleted fields) last. */
  ordered(tableId: string, fieldIds: Iterable<string>): string[];
  /** The record's primary value when it is plain text or a number. */
  recordName(tableId: string, fields: Record<string, unknown> | null | undefined): string | undefined;
}

export function mirrorNames(mirror: MirrorInfo | undefined): MirrorNames {
  const tables = mirror?.tables ?? [];
  const byTable = new Map(tables.map((table) => [table.tableId, table]));
  const byField = new Map(tables.flatMap((table) => table.fields.map((field) => [field.fieldId, field.name] as const)));
  return {
    tables,
    table: (tableId) => byTable.get(tableId),
    field: (fieldId) => byField.get(fieldId),
    ordered: (tableId, fieldIds) => {
      const order = new Map((byTable.get(tableId)?.fields ?? []).map((field, index) => [field.fieldId, index]));
      const rank = (id: string) => order.get(id) ?? Number.MAX_SAFE_INTEGER;
      return [...new Set(fieldIds)].sort((a, b) => rank(a) - rank(b));
    },
    recordName: (tableId, fields) => {
      const value = fields?.[byTable.get(tableId)?.primaryFieldId ?? ''];
      if (typeof value === 'string' && value.trim()) return value;
      if (typeof value === 'number') return String(value);
      return undefined;
    },
  };
}

/** The mirror of a config with its names; asks again every 2 s until the mirror is live (a seed takes a while). */
export function useMirror(configId: string) {
  const result = useQuery(MIRROR_NAMES, { variables: { id: configId } });
  const mirror = result.data?.monitoringConfig?.mirror;
  const waiting = mirror !== undefined && mirror.status !== 'LIVE';
  const { startPolling, stopPolling } = result;
  useEffect(() => {
    if (!waiting) return;
    startPolling(2_000);
    return () => stopPolling();
  }, [waiting, startPolling, stopPolling]);
  return { ...result, config: result.data?.monitoringConfig ?? undefined, mirror, names: mirrorNames(mirror) };
}
