import { useState } from 'preact/hooks';
import { Link } from '../router.js';
import { historyPath } from './mirror-paths.js';
import { justBefore, RestoreFlow, type RestoreRequest } from './restore-flow.js';

interface LoggedChange {
  eventType: string;
  kind: string;
  tableId: string;
  recordId?: string | null;
  fieldIds: string[];
  occurredAt: string;
}

/** What restoring a change means: a deletion re-creates the record; an update sets the fields it changed back. */
export function restoreOf(configId: string, change: LoggedChange): RestoreRequest | undefined {
  if (!change.recordId) return undefined;
  const base = { configId, tableId: change.tableId, recordIds: [change.recordId] };
  if (change.eventType === 'RECORD_DELETE') return base;
  if (change.eventType === 'RECORD_UPDATE') {
    return { ...base, at: justBefore(change.occurredAt), ...(change.fieldIds.length ? { fieldIds: change.fieldIds } : {}) };
  }
  return undefined;
}

/** A record change's links into the mirror: the record's history, and Restore (preview, progress, result). */
export function ChangeActions({ configId, change }: { configId: string; change: LoggedChange }) {
  const [open, setOpen] = useState(false);
  if (change.kind !== 'RECORD' || !change.recordId) return null;
  const request = restoreOf(configId, change);
  return (
    <>
      <p class="change-actions">
        <Link href={historyPath(configId, change.recordId)}>Record history</Link>
        {request && !open && (
          <button type="button" class="secondary" onClick={() => setOpen(true)}>
            {change.eventType === 'RECORD_DELETE' ? 'Restore the record…' : 'Restore the values before this change…'}
          </button>
        )}
      </p>
      {request && open && <RestoreFlow request={request} onClose={() => setOpen(false)} />}
    </>
  );
}
