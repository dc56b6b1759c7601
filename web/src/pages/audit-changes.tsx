import { useQuery, useSubscription } from '@apollo/client/react';
import { useState } from 'preact/hooks';
import { ChangeDiff } from '../audit/change-diff.js';
import { ChangeFilters, type ChangeFilter } from '../audit/change-filters.js';
import { withLoggedChange } from '../audit/logged-change.js';
import { ErrorMessage } from '../form.js';
import { Time } from '../format.js';
import { graphql } from '../graphql.js';
import { Layout } from '../layout.js';
import { ChangeActions } from '../mirror/change-actions.js';
import { deletedPath } from '../mirror/mirror-paths.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link } from '../router.js';

const CHANGE_FIELDS = graphql(`
  fragment ChangeFields on Change {
    id occurredAt eventType kind tableName recordId source userEmail userName before after monitoringRecordId tableId fieldIds
  }
`);
const CHANGES = graphql(
  `
    query Changes($id: ID!, $filter: ChangeFilter, $first: Int, $after: String, $last: Int, $before: String) {
      monitoringConfig(id: $id) {
        id baseId baseName timezone monitoringBaseId monitoringTableId
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
  return (
    <Layout title={config ? `Changes of ${config.baseName}` : 'Changes'}>
      <p>
        <Link href="/audit-log">← All monitored bases</Link> · <Link href={deletedPath(id)}>Recently deleted records</Link>
      </p>
      <ErrorMessage error={error} />
      {config && (
        <ChangeFilters
          baseId={config.baseId}
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
                  <strong>{change.eventType.toLowerCase().replace('_', ' ')}</strong> in {change.tableName || 'a table'}
                  {change.recordId && <> · {change.recordId}</>} · <Time value={change.occurredAt} />
                </p>
                <p class="hint">
                  {change.userName ?? change.userEmail ?? 'nobody named'} · {change.source.toLowerCase().replace(/_/g, ' ')}
                  {change.monitoringRecordId && (
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
                <ChangeDiff before={change.before} after={change.after} />
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
