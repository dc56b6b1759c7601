import { useQuery } from '../graphql-hooks.js';
import { useId, useState } from 'preact/hooks';
import { ErrorMessage, inputValue } from '../form.js';
import { graphql } from '../graphql.js';
import { RecordFields } from './cells.js';
import { errorCode } from './errors.js';
import type { MirrorNames } from './mirror-names.js';
import { RestoreFlow } from './restore-flow.js';
import { Instant } from './instant.js';

const RECORD_AT = graphql(`
  query RecordAt($id: ID!, $recordId: String!, $at: DateTime) {
    monitoringConfig(id: $id) { id record(id: $recordId, at: $at) { recordId tableId createdTime deletedAt fields } }
  }
`);

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';

/**
 * "As it was at": an instant picked in the viewer's zone (a datetime-local input is read as local time), and the
 * record's fields then by name; its values can be put back from there.
 */
export function RecordAt({ configId, recordId, names }: { configId: string; recordId: string; names: MirrorNames }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [at, setAt] = useState<string>();
  const [restoring, setRestoring] = useState(false);
  const { data, error, loading } = useQuery(RECORD_AT, {
    variables: { id: configId, recordId, at: at ?? null },
    skip: !at,
    errorPolicy: 'all',
  });
  const record = at ? data?.monitoringConfig?.record : undefined;
  const submit = (event: Event) => {
    event.preventDefault();
    const instant = new Date(draft);
    if (Number.isNaN(instant.getTime())) return;
    setRestoring(false);
    setAt(instant.toISOString());
  };
  return (
    <section class="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>As it was at…</h2>
      <form class="inline" onSubmit={submit}>
        <div class="field">
          <label for={`${id}-at`}>Instant, in your time zone ({viewerZone()})</label>
          <input id={`${id}-at`} type="datetime-local" step={1} required value={draft} onInput={(e) => setDraft(inputValue(e))} />
        </div>
        <div>
          <button type="submit" disabled={loading}>
            Show the record then
          </button>
        </div>
      </form>
      <div aria-live="polite" data-testid="record-at">
        {at && error && errorCode(error) === 'not_found' && (
          <p class="empty">
            The record did not exist yet at <Instant value={at} />.
          </p>
        )}
        {at && error && errorCode(error) !== 'not_found' && <ErrorMessage error={error} />}
        {record && (
          <>
            <p>
              At <Instant value={at} />
              {record.deletedAt ? (
                <>
                  , deleted since <Instant value={record.deletedAt} />; its last values:
                </>
              ) : (
                ':'
              )}
            </p>
            <RecordFields tableId={record.tableId} fields={record.fields} names={names} />
            {!restoring && (
              <p>
                <button type="button" class="secondary" onClick={() => setRestoring(true)}>
                  Restore the record to these values…
                </button>
              </p>
            )}
          </>
        )}
      </div>
      {record && restoring && (
        <RestoreFlow
          request={{ configId, tableId: record.tableId, recordIds: [recordId], at }}
          labels={{ [recordId]: names.recordName(record.tableId, record.fields) ?? recordId }}
          onClose={() => setRestoring(false)}
        />
      )}
    </section>
  );
}
