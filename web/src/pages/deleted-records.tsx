import { useQuery } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { ErrorMessage, selectValue } from '../form.js';
import { graphql } from '../graphql.js';
import { Layout } from '../layout.js';
import { RecordFields } from '../mirror/cells.js';
import { ForwardPager, useForwardPages } from '../mirror/forward-pages.js';
import { useMirror } from '../mirror/mirror-names.js';
import { deletedPath, historyPath } from '../mirror/mirror-paths.js';
import { MirrorState } from '../mirror/mirror-state.js';
import { RestoreFlow } from '../mirror/restore-flow.js';
import { Link, navigate, useLocation } from '../router.js';
import { Instant } from '../mirror/instant.js';

const PAGE = 25;
const DELETED = graphql(`
  query DeletedRecords($id: ID!, $tableId: String, $first: Int, $after: String) {
    monitoringConfig(id: $id) {
      id
      deletedRecords(tableId: $tableId, first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes { recordId tableId deletedAt deletedBy fields restoredAs }
      }
    }
  }
`);

/** "Recently deleted": a table's deleted records with their last values, newest first; pick some and restore them. */
export function DeletedRecordsPage({ configId }: { configId: string }) {
  const { query } = useLocation();
  const { config, mirror, names, error: mirrorError } = useMirror(configId);
  const tableId = query.get('table') ?? mirror?.tables[0]?.tableId;
  const pages = useForwardPages();
  const { data, error, refetch } = useQuery(DELETED, {
    variables: { id: configId, tableId, first: PAGE, after: pages.after },
    skip: !tableId || mirror?.seededAt === null,
    fetchPolicy: 'cache-and-network',
  });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [restoring, setRestoring] = useState<string[]>();
  const list = data?.monitoringConfig?.deletedRecords;
  const records = list?.nodes ?? [];
  const labels = Object.fromEntries(records.map((r) => [r.recordId, names.recordName(r.tableId, r.fields) ?? r.recordId]));
  const pickTable = (next: string) => {
    setSelected(new Set());
    setRestoring(undefined);
    pages.first();
    navigate(deletedPath(configId, next), { replace: true });
  };
  const toggle = (recordId: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(recordId);
    else next.delete(recordId);
    setSelected(next);
  };
  // A record a restore re-created is not restored again (the service refuses it): its new record is linked instead.
  const restorable = records.filter((r) => !r.restoredAs);
  const allShown = restorable.length > 0 && restorable.every((r) => selected.has(r.recordId));
  return (
    <Layout title={`Recently deleted in ${config?.baseName ?? 'the base'}`}>
      <p class="back">
        <Link href={`/audit-log/${encodeURIComponent(configId)}`}>← Changes of {config?.baseName ?? 'the base'}</Link>
      </p>
      <MirrorState mirror={mirror} />
      <ErrorMessage error={mirrorError ?? error} />
      {mirror && mirror.tables.length > 0 && (
        <div class="panel deleted-tools">
          <div class="field table-pick">
            <label for="deleted-table">Table</label>
            <select id="deleted-table" value={tableId} onChange={(e) => pickTable(selectValue(e))}>
              {mirror.tables.map((table) => (
                <option key={table.tableId} value={table.tableId}>
                  {table.tableName}
                </option>
              ))}
            </select>
          </div>
          {list && records.length > 0 && (
            <>
              <div class="check">
                <input
                  id="deleted-all"
                  type="checkbox"
                  checked={allShown}
                  onChange={(e) =>
                    setSelected(new Set((e.currentTarget as HTMLInputElement).checked ? restorable.map((r) => r.recordId) : []))
                  }
                />
                <label for="deleted-all">Select all on this page</label>
              </div>
              <button type="button" disabled={selected.size === 0 || restoring !== undefined} onClick={() => setRestoring([...selected])}>
                Restore {selected.size || ''} selected…
              </button>
            </>
          )}
        </div>
      )}
      {list && list.totalCount === 0 && <p class="empty">No record of this table was deleted since the mirror began.</p>}
      {list && records.length > 0 && (
        <>
          <p class="hint">
            {list.totalCount.toLocaleString()} deleted {list.totalCount === 1 ? 'record' : 'records'}, newest first, with the values they
            held when deleted.
          </p>
          {restoring && tableId && (
            <RestoreFlow
              request={{ configId, tableId, recordIds: restoring }}
              labels={labels}
              onClose={() => {
                setRestoring(undefined);
                setSelected(new Set());
                // Records it re-created now say so.
                void refetch();
              }}
            />
          )}
          <ul class="cards" data-testid="deleted-records">
            {records.map((record) => (
              <li key={record.recordId} class="card">
                <div class="check">
                  <input
                    id={`deleted-${record.recordId}`}
                    type="checkbox"
                    checked={selected.has(record.recordId)}
                    disabled={record.restoredAs !== null}
                    onChange={(e) => toggle(record.recordId, (e.currentTarget as HTMLInputElement).checked)}
                  />
                  <label for={`deleted-${record.recordId}`}>{labels[record.recordId]}</label>
                </div>
                <p class="hint">
                  Deleted <Instant value={record.deletedAt} /> by {record.deletedBy ?? 'nobody named'} ·{' '}
                  <Link href={historyPath(configId, record.recordId)}>history of {record.recordId}</Link>
                </p>
                {record.restoredAs && (
                  <p class="hint" data-testid="restored-as">
                    Restored as <Link href={historyPath(configId, record.restoredAs)}>{record.restoredAs}</Link>
                  </p>
                )}
                <details>
                  <summary>Its last values</summary>
                  <RecordFields tableId={record.tableId} fields={record.fields} names={names} />
                </details>
              </li>
            ))}
          </ul>
          <ForwardPager
            label="Deleted record pages"
            pages={pages}
            olderCursor={list.pageInfo.hasNextPage ? (list.pageInfo.endCursor ?? undefined) : undefined}
          />
        </>
      )}
    </Layout>
  );
}
