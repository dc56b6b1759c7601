import { useQuery } from '../graphql-hooks.js';
import { graphql } from '../graphql.js';
import { FieldName, VersionDiff } from './cells.js';
import { Instant } from './instant.js';
import type { MirrorNames } from './mirror-names.js';
import type { RestoreRequest } from './restore-flow.js';

/** A record's values now and at the instant a restore sets back: what one record's update would write. */
const NOW_AND_THEN = graphql(`
  query RestoreNowAndThen($id: ID!, $recordId: String!, $at: DateTime) {
    monitoringConfig(id: $id) {
      id
      now: record(id: $recordId) { recordId tableId fields }
      then: record(id: $recordId, at: $at) { recordId tableId fields }
    }
  }
`);

export interface RestorePlan {
  at: string;
  create: number;
  update: number;
  skippedFieldIds: string[];
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

export function FieldList({ ids, names }: { ids: readonly string[]; names: MirrorNames }) {
  return (
    <>
      {ids.map((fieldId, index) => (
        <span key={fieldId}>
          {index > 0 && ', '}
          <FieldName id={fieldId} names={names} />
        </span>
      ))}
    </>
  );
}

/**
 * What a dry run says a restore would write: records re-created and set back, the fields limited to and those left
 * out by name; for one record set back, each value now → the value it gets back.
 */
export function RestorePreview({ plan, request, names }: { plan: RestorePlan; request: RestoreRequest; names: MirrorNames }) {
  const skipped = new Set(plan.skippedFieldIds);
  const only = request.fieldIds?.filter((fieldId) => !skipped.has(fieldId));
  const oneUpdate = plan.update === 1 && request.recordIds.length === 1;
  return (
    <div data-testid="restore-preview">
      <p>Nothing is written until you confirm.</p>
      <ul>
        {plan.create > 0 && (
          <li>
            {plural(plan.create, 'deleted record')} to re-create with {plan.create === 1 ? 'its' : 'their'}{' '}
            {request.at ? (
              <>
                values at <Instant value={plan.at} />
              </>
            ) : (
              'last values'
            )}
          </li>
        )}
        {plan.update > 0 && (
          <li>
            {plural(plan.update, 'record')} whose fields are set back to their values at <Instant value={plan.at} />
            {only && only.length > 0 && (
              <>
                {' '}
                (only <FieldList ids={only} names={names} />)
              </>
            )}
          </li>
        )}
      </ul>
      {oneUpdate && <OneUpdate request={request} only={only} skipped={skipped} names={names} />}
      {plan.skippedFieldIds.length > 0 && (
        <p>
          Left out (computed, or no longer in the table): <FieldList ids={plan.skippedFieldIds} names={names} />.
        </p>
      )}
      {plan.create + plan.update === 0 && <p>Nothing to restore: these records already hold those values.</p>}
    </div>
  );
}

function OneUpdate({
  request,
  only,
  skipped,
  names,
}: {
  request: RestoreRequest;
  only: string[] | undefined;
  skipped: Set<string>;
  names: MirrorNames;
}) {
  const { data } = useQuery(NOW_AND_THEN, {
    variables: { id: request.configId, recordId: request.recordIds[0]!, at: request.at ?? null },
    fetchPolicy: 'network-only',
  });
  const now = data?.monitoringConfig?.now;
  const then = data?.monitoringConfig?.then;
  if (!now || !then) return null;
  const written = [...new Set([...Object.keys(now.fields), ...Object.keys(then.fields)])].filter(
    (fieldId) => !skipped.has(fieldId) && (!only || only.includes(fieldId)),
  );
  return (
    <VersionDiff tableId={now.tableId} before={now.fields} after={then.fields} names={names} only={written} words={['now', 'back to']} />
  );
}
