import { useMutation, useQuery } from '../graphql-hooks.js';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Link } from '../router.js';
import { historyPath } from './mirror-paths.js';
import { useMirror } from './mirror-names.js';
import { plural, RestorePreview } from './restore-preview.js';

const RESTORE_FIELDS = graphql(`
  fragment RestoreFlowFields on Restore {
    id status at create update skippedFieldIds progress { done total } createdRecordIds { deletedRecordId recordId } error
  }
`);
const RESTORE = graphql(
  `
    mutation RestoreRecords($input: RestoreRecordsInput!) { restoreRecords(input: $input) { restore { ...RestoreFlowFields } } }
  `,
  [RESTORE_FIELDS],
);
const PROGRESS = graphql(
  `
    query RestoreProgress($id: ID!) { node(id: $id) { id __typename ... on Restore { ...RestoreFlowFields } } }
  `,
  [RESTORE_FIELDS],
);
type Restore = ResultOf<typeof RESTORE_FIELDS>;

export interface RestoreRequest {
  configId: string;
  tableId: string;
  recordIds: string[];
  /** The instant whose values come back; none: now (a deleted record gets its values from just before its deletion). */
  at?: string;
  /** Only these fields of existing records. */
  fieldIds?: string[];
}

/** The instant just before a change: the values it overwrote are the record's then. */
export const justBefore = (at: string) => new Date(new Date(at).getTime() - 1).toISOString();

const finished = (restore: Restore | undefined) => restore?.status === 'DONE' || restore?.status === 'FAILED';

/**
 * A restore from the mirror in three steps: the preview (a dry run: what would be re-created and set back, the fields
 * left out by name), then, once confirmed, the progress (the Restore node polled), then the result with links to the
 * re-created records' history.
 */
export function RestoreFlow({
  request,
  labels = {},
  onClose,
}: {
  request: RestoreRequest;
  /** What to call a record in the result (its primary value), by id. */
  labels?: Record<string, string>;
  onClose: () => void;
}) {
  const id = useId();
  const { names } = useMirror(request.configId);
  const [restoreRecords, asked] = useMutation(RESTORE);
  const [plan, setPlan] = useState<Restore>();
  const [started, setStarted] = useState<Restore>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    restoreRecords({ variables: { input: { ...request, dryRun: true } } }).then(
      (result) => setPlan(result.data?.restoreRecords.restore),
      () => undefined,
    );
  }, []);
  const polled = useQuery(PROGRESS, {
    variables: { id: started?.id ?? '' },
    skip: !started || finished(started),
    pollInterval: 500,
    fetchPolicy: 'network-only',
  });
  const node = polled.data?.node;
  const current = node?.__typename === 'Restore' ? node : started;
  const { stopPolling } = polled;
  useEffect(() => {
    if (finished(current)) stopPolling();
  }, [current?.status, stopPolling]);
  const confirm = async () => {
    const result = await restoreRecords({ variables: { input: request } }).catch(() => null);
    setStarted(result?.data?.restoreRecords.restore);
  };
  const total = plan ? plan.create + plan.update : 0;
  const step = current ? (finished(current) ? 'finished' : 'running') : 'preview';
  // The button pressed goes away at each step: the keyboard focus goes to the step's heading instead of the page.
  useEffect(() => heading.current?.focus(), [step]);
  return (
    <section class="restore-flow notice" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} tabIndex={-1} ref={heading}>
        {{ preview: 'Restore: preview', running: 'Restoring…', finished: 'Restore finished' }[step]}
      </h2>
      <div aria-live="polite">
        {!plan && !asked.error && <p>Working out what would be written…</p>}
        {plan && !current && <RestorePreview plan={plan} request={request} names={names} />}
        {current && <RestoreProgress id={`${id}-progress`} restore={current} />}
      </div>
      <ErrorMessage error={asked.error ?? polled.error} />
      {current && finished(current) && <RestoreResult restore={current} configId={request.configId} labels={labels} />}
      <div class="actions">
        {plan && !current && total > 0 && (
          <button type="button" onClick={confirm} disabled={asked.loading}>
            Restore {plural(total, 'record')}
          </button>
        )}
        {(!current || finished(current)) && (
          <button type="button" class="secondary" onClick={onClose}>
            {current ? 'Close' : 'Cancel'}
          </button>
        )}
      </div>
    </section>
  );
}

function RestoreProgress({ id, restore }: { id: string; restore: Restore }) {
  const { done, total } = restore.progress;
  const state = restore.status === 'FAILED' ? 'Failed after' : restore.status === 'DONE' ? 'Done:' : 'Written so far:';
  return (
    <div class="field">
      <label for={id}>
        {state} {done.toLocaleString()} of {plural(total, 'record')}
      </label>
      <progress id={id} max={Math.max(total, 1)} value={total ? done : 1} />
    </div>
  );
}

function RestoreResult({ restore, configId, labels }: { restore: Restore; configId: string; labels: Record<string, string> }) {
  return (
    <div data-testid="restore-result">
      {restore.status === 'FAILED' && (
        <p class="error" role="alert">
          The restore stopped: {restore.error ?? 'the upstream refused a write'}.
        </p>
      )}
      {restore.status === 'DONE' && (
        <p>
          {restore.create > 0 && `${plural(restore.create, 'record')} re-created. `}
          {restore.update > 0 && `${plural(restore.update, 'record')} set back. `}
          What was written comes back through the watch and is logged like any change.
        </p>
      )}
      {restore.createdRecordIds.length > 0 && (
        <ul>
          {restore.createdRecordIds.map((pair) => (
            <li key={pair.deletedRecordId}>
              {labels[pair.deletedRecordId] ?? pair.deletedRecordId}:{' '}
              <Link href={historyPath(configId, pair.recordId)}>re-created as {pair.recordId}</Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
