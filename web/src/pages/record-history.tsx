import { useQuery } from '../graphql-hooks.js';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Layout } from '../layout.js';
import { SOURCE_NAMES } from '../names.js';
import { type Cells, RecordFields, VersionDiff } from '../mirror/cells.js';
import { errorCode } from '../mirror/errors.js';
import { ForwardPager, useForwardPages } from '../mirror/forward-pages.js';
import { type MirrorNames, useMirror } from '../mirror/mirror-names.js';
import { deletedPath } from '../mirror/mirror-paths.js';
import { MirrorState } from '../mirror/mirror-state.js';
import { RecordAt } from '../mirror/record-at.js';
import { justBefore, RestoreFlow, type RestoreRequest } from '../mirror/restore-flow.js';
import { Link } from '../router.js';
import { Instant } from '../mirror/instant.js';

const PAGE = 20;
const HISTORY = graphql(`
  query RecordHistory($id: ID!, $recordId: String!, $first: Int, $after: String) {
    monitoringConfig(id: $id) {
      id
      record(id: $recordId) { recordId tableId createdTime deletedAt fields }
      recordHistory(recordId: $recordId, first: $first, after: $after) {
        totalCount
        edges { cursor node { at eventType source userEmail fields } }
      }
    }
  }
`);
type Version = NonNullable<ResultOf<typeof HISTORY>['monitoringConfig']>['recordHistory']['edges'][number]['node'];

const EVENT_NAMES: Record<Version['eventType'], string> = {
  BASELINE: 'Read by the mirror',
  RECORD_CREATE: 'Created',
  RECORD_UPDATE: 'Changed',
  RECORD_DELETE: 'Deleted',
  COLUMN_DELETE: 'A field was deleted',
};
const changedIds = (before: Cells, after: Cells) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));

/**
 * A mirrored record's history: its versions newest first as diffs by field name with who, where from and when; the
 * record as it was at an instant; and restore (the record if deleted, or the values a change overwrote).
 */
export function RecordHistoryPage({ configId, recordId }: { configId: string; recordId: string }) {
  const pages = useForwardPages();
  const { config, mirror, names, error: mirrorError } = useMirror(configId);
  const { data, error, startPolling, stopPolling, refetch } = useQuery(HISTORY, {
    variables: { id: configId, recordId, first: PAGE + 1, after: pages.after },
    errorPolicy: 'all',
  });
  // A record just re-created by a restore reaches the mirror through the watch a few seconds later: ask again.
  const notYet = errorCode(error) === 'not_found' && !data?.monitoringConfig?.record;
  useEffect(() => {
    if (!notYet) return;
    startPolling(2_000);
    return () => stopPolling();
  }, [notYet, startPolling, stopPolling]);
  const [restoring, setRestoring] = useState<{ key: string; request: RestoreRequest }>();
  const record = data?.monitoringConfig?.record ?? undefined;
  const history = data?.monitoringConfig?.recordHistory;
  const edges = history?.edges ?? [];
  const shown = edges.slice(0, PAGE);
  const name = record ? names.recordName(record.tableId, record.fields) : undefined;
  const table = record ? names.table(record.tableId) : undefined;
  const restoreFlow = (key: string) =>
    restoring?.key === key && (
      <RestoreFlow
        request={restoring.request}
        labels={{ [recordId]: name ?? recordId }}
        onClose={() => {
          setRestoring(undefined);
          void refetch();
        }}
      />
    );
  return (
    <Layout
      title={`History of ${name ?? recordId}`}
      actions={
        record?.deletedAt &&
        !restoring && (
          <button
            type="button"
            onClick={() => setRestoring({ key: 'record', request: { configId, tableId: record.tableId, recordIds: [recordId] } })}
          >
            Restore this record…
          </button>
        )
      }
    >
      <p class="back">
        <Link href={`/audit-log/${encodeURIComponent(configId)}`}>← Changes of {config?.baseName ?? 'the base'}</Link>
        {table && (
          <>
            {' · '}
            <Link href={deletedPath(configId, table.tableId)}>Recently deleted in {table.tableName}</Link>
          </>
        )}
      </p>
      <MirrorState mirror={mirror} />
      <ErrorMessage error={mirrorError} />
      {notYet ? (
        <p class="empty" role="status">
          This record is not in the mirror (yet): a record made moments ago shows up within seconds; this page asks again.
        </p>
      ) : (
        <ErrorMessage error={error} />
      )}
      {record && (
        <dl class="facts panel">
          <dt>Table</dt>
          <dd>{table?.tableName ?? record.tableId}</dd>
          <dt>Record</dt>
          <dd>
            <code>{record.recordId}</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <Instant value={record.createdTime} />
          </dd>
          {record.deletedAt && (
            <>
              <dt>Deleted</dt>
              <dd>
                <Instant value={record.deletedAt} />
              </dd>
            </>
          )}
        </dl>
      )}
      {restoreFlow('record')}
      {record && <RecordAt configId={configId} recordId={recordId} names={names} />}
      {record && history && (
        <section class="versions" aria-labelledby="versions-heading">
          <h2 id="versions-heading">Versions, newest first</h2>
          <p class="hint">
            {history.totalCount.toLocaleString()} {history.totalCount === 1 ? 'version' : 'versions'} kept.
          </p>
          <ol class="changes" data-testid="versions">
            {shown.map((edge, index) => {
              const before = edges[index + 1]?.node.fields;
              const version = edge.node;
              // The mirror answers instants from its seed on: a change the first seed met while it read cannot be undone.
              const afterSeed = !mirror?.seededAt || Date.parse(justBefore(version.at)) >= Date.parse(mirror.seededAt);
              const canRestore = version.eventType === 'RECORD_UPDATE' && before && !record.deletedAt && afterSeed;
              return (
                <li key={edge.cursor} class="card">
                  <VersionCard version={version} before={before} tableId={record.tableId} names={names} />
                  {canRestore && !restoring && (
                    <p>
                      <button
                        type="button"
                        class="secondary"
                        onClick={() =>
                          setRestoring({
                            key: edge.cursor,
                            request: {
                              configId,
                              tableId: record.tableId,
                              recordIds: [recordId],
                              at: justBefore(version.at),
                              fieldIds: changedIds(before, version.fields),
                            },
                          })
                        }
                      >
                        Put back the values this change overwrote…
                      </button>
                    </p>
                  )}
                  {restoreFlow(edge.cursor)}
                </li>
              );
            })}
          </ol>
          <ForwardPager label="Version pages" pages={pages} olderCursor={edges.length > PAGE ? shown.at(-1)?.cursor : undefined} />
        </section>
      )}
    </Layout>
  );
}

function VersionCard({
  version,
  before,
  tableId,
  names,
}: {
  version: Version;
  before: Cells | undefined;
  tableId: string;
  names: MirrorNames;
}) {
  return (
    <>
      <p>
        <strong>{EVENT_NAMES[version.eventType]}</strong> · <Instant value={version.at} />
      </p>
      <p class="hint">
        {version.eventType === 'BASELINE'
          ? 'as a full read of the base found it'
          : `${version.userEmail ?? 'nobody named'} · ${SOURCE_NAMES[version.source]}`}
      </p>
      {version.eventType === 'RECORD_DELETE' ? (
        before && (
          <>
            <p class="hint">Its values when deleted:</p>
            <RecordFields tableId={tableId} fields={before} names={names} />
          </>
        )
      ) : before && version.eventType !== 'RECORD_CREATE' ? (
        <VersionDiff tableId={tableId} before={before} after={version.fields} names={names} />
      ) : (
        <RecordFields tableId={tableId} fields={version.fields} names={names} />
      )}
    </>
  );
}
