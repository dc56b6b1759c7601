import { useQuery, useSubscription } from '../graphql-hooks.js';
import { useMemo, useRef, useState } from 'preact/hooks';
import { ChangeDiff, KeyName } from '../audit/change-diff.js';
import { ChangeFilters, type ChangeFilter, type KnownRecord } from '../audit/change-filters.js';
import { withLoggedChange } from '../audit/logged-change.js';
import { recordLabel } from '../audit/record-search.js';
import { primaryValue, schemaNames, type SchemaNames } from '../audit/schema-names.js';
import { ErrorMessage } from '../form.js';
import { Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Layout } from '../layout.js';
import { ChangeActions } from '../mirror/change-actions.js';
import { deletedPath } from '../mirror/mirror-paths.js';
import { EVENT_NAMES, realAirtable, SOURCE_NAMES } from '../names.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link } from '../router.js';

const CHANGE_FIELDS = graphql(`
  fragment ChangeFields on Change {
    id occurredAt eventType kind tableId tableName recordId source userEmail userName before after monitoringRecordId fieldIds
  }
`);
const CHANGES = graphql(
  `
    query Changes($id: ID!, $filter: ChangeFilter, $first: Int, $after: String, $last: Int, $before: String) {
      monitoringConfig(id: $id) {
        id baseId baseName timezone monitoringBaseId monitoringTableId
        tables { restId name primaryFieldId fields { restId name } }
        changes(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
          totalCount
          pageInfo { ...PageInfoFields }
          nodes { ...ChangeFields }
        }
      }
    }
  `,
  [PAGE_INFO_FIELDS, CHANGE_FIELDS],
);
const CHANGE_LOGGED = graphql(
  `
    subscription ChangeLogged($id: ID!) { changeLogged(monitoringConfigId: $id) { ...ChangeFields } }
  `,
  [CHANGE_FIELDS],
);

/** The change browser of one monitoring config: every filter, newest first, paged both ways, diffs, live. */
export function AuditChangesPage({ id }: { id: string }) {
  const paging = usePaging(20);
  const [filter, setFilter] = useState<ChangeFilter>({});
  const onFirstPage = !paging.variables.after && !paging.variables.before;
  const { data, error, updateQuery, refetch } = useQuery(CHANGES, { variables: { id, filter, ...paging.variables } });
  // Live on the first page: an unfiltered one takes the pushed change as it is, a filtered one asks the server again.
  useSubscription(CHANGE_LOGGED, {
    variables: { id },
    skip: !onFirstPage,
    onData: ({ data: pushed }) => {
      const change = pushed.data?.changeLogged;
      if (!change) return;
      if (Object.keys(filter).length > 0) return void refetch();
      updateQuery((_, { complete, previousData }) => {
        const config = complete ? previousData.monitoringConfig : undefined;
        if (config) return { ...previousData, monitoringConfig: { ...config, changes: withLoggedChange(config.changes, change) } };
      });
    },
  });
  const config = data?.monitoringConfig;
  const changes = config?.changes;
  const names = useMemo(() => (config?.tables ? schemaNames(config.tables) : null), [config?.tables]);
  // Records seen in the log while the page is open (and found by the record filter's search of the mirror), by id:
  // the record filter offers them by their primary value.
  const seen = useRef(new Map<string, KnownRecord>());
  for (const change of changes?.nodes ?? []) {
    if (change.kind !== 'RECORD' || !change.recordId || seen.current.has(change.recordId)) continue;
    const value = primaryValue(names?.table(change.tableId), change.after, change.before);
    if (value) seen.current.set(change.recordId, { id: change.recordId, label: recordLabel(value, names?.table(change.tableId)?.name) });
  }
  return (
    <Layout title={config ? `Changes of ${config.baseName}` : 'Changes'}>
      <p>
        <Link href="/audit-log">← All monitored bases</Link> · <Link href={deletedPath(id)}>Recently deleted records</Link>
      </p>
      <ErrorMessage error={error} />
      {config && (
        <ChangeFilters
          configId={id}
          names={names}
          records={[...seen.current.values()]}
          onFound={(found) => {
            for (const record of found) if (!seen.current.has(record.id)) seen.current.set(record.id, record);
          }}
          timezone={config.timezone}
          applied={filter}
          onApply={(next) => {
            setFilter(next);
            paging.reset();
          }}
        />
      )}
      {changes && changes.totalCount === 0 && (
        <p class="empty">
          No change{' '}
          {Object.keys(filter).length ? 'matches these filters' : 'logged yet: changes made in the base appear here within seconds'}.
        </p>
      )}
      {changes && changes.nodes.length > 0 && (
        <>
          <p aria-live="polite">
            {changes.totalCount} {changes.totalCount === 1 ? 'change' : 'changes'}, newest first
            {onFirstPage && '; new ones appear as they are logged'}.
          </p>
          <ol class="changes" data-testid="changes">
            {changes.nodes.map((change) => (
              <li key={change.id} class="card">
                <p>
                  <strong>{EVENT_NAMES[change.eventType]}</strong> in{' '}
                  {names?.table(change.tableId)?.name ?? (change.tableName || 'a table')}
                  <ChangeSubject change={change} names={names} /> · <Time value={change.occurredAt} />
                </p>
                <p class="hint">
                  {change.userName ?? change.userEmail ?? 'nobody named'} · {SOURCE_NAMES[change.source]}
                  {change.monitoringRecordId && realAirtable() && (
                    <>
                      {' '}
                      ·{' '}
                      <a
                        href={`https://airtable.com/${config!.monitoringBaseId}/${config!.monitoringTableId}/${change.monitoringRecordId}`}
                        target="_blank"
                        rel="noreferrer"
                      >
                        row in the Changes table
                      </a>
                    </>
                  )}
                </p>
                <ChangeDiff before={change.before} after={change.after} names={names} />
                <ChangeActions configId={id} change={change} />
              </li>
            ))}
          </ol>
        </>
      )}
      {changes && <Pager label="Change pages" pageInfo={changes.pageInfo} paging={paging} />}
    </Layout>
  );
}

type ChangeNode = ResultOf<typeof CHANGE_FIELDS>;

/** What a change is about: a record by its primary field's value (its id when unknown), a field by its name. */
function ChangeSubject({ change, names }: { change: ChangeNode; names: SchemaNames | null }) {
  if (!change.recordId) return null;
  if (change.kind === 'SCHEMA')
    return (
      <>
        {' '}
        · field <KeyName id={change.recordId} names={names} />
      </>
    );
  const value = primaryValue(names?.table(change.tableId), change.after, change.before);
  return <> · {value ? `“${value}”` : <code>{change.recordId}</code>}</>;
}
