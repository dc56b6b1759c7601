import type { EntityManager } from 'typeorm';
import { MirrorBase } from '../../entities/index.js';
import { addPending, findMirror, lockMirror } from '../../repositories/mirror.repository.js';
import type { ChangeEvent, IngestedBase, WatchedBase } from '../audit/change-event.js';
import type { ChangeSink } from '../audit/change-pipeline.js';
import { applyChanges } from './mirror-apply.js';
import { isRecordChange, toMirrorChange } from './mirror-change.js';
import { parseSchema } from './mirror-schema.js';

/**
 * Keeps each mirror current from the watch's payloads, inside the ingestion's transaction (the mirror moves with the
 * cursor, or not at all). While a seed reads, changes wait in `mirror_pending` for it. A payload read from another
 * webhook than the one the mirror follows, or after payloads the upstream no longer has, puts the mirror in `gap`:
 * it is not changed again until a new seed has read the whole base.
 */
export class MirrorSink implements ChangeSink {
  readonly includesOwnRows = true;
  private readonly gapped = new Set<string>();

  constructor(private readonly onGap: (baseId: string) => void) {}

  async accept(manager: EntityManager, base: IngestedBase, changes: ChangeEvent[]): Promise<void> {
    // A page without changes from the webhook the mirror follows leaves it as it is (no write on every poll).
    if (!changes.length && !base.missedPayloads) {
      const known = await findMirror(manager, base.baseId);
      if (!known || known.webhookId === base.webhookId || known.webhookId === null) return;
    }
    const now = new Date();
    const mirror = await lockMirror(manager, base.baseId, now);
    if (!mirror) return;
    // Not started yet: the seed starts from the webhook as it is then.
    if (mirror.webhookId === null || mirror.status === 'gap') return;
    const reason =
      mirror.webhookId !== base.webhookId ? 'the upstream webhook was re-created' : base.missedPayloads ? 'payloads were missed' : null;
    if (reason) {
      await manager.update(MirrorBase, { id: mirror.id }, { status: 'gap', gapReason: reason, updatedAt: now });
      this.gapped.add(base.baseId);
      return;
    }
    if (!changes.length) return;
    const schema = parseSchema(mirror.schemaJson);
    const mirrored = changes.map((change) => toMirrorChange(change, schema));
    if (mirror.status === 'seeding') {
      await addPending(manager, base.baseId, mirrored);
      return;
    }
    await applyChanges(manager, base.baseId, schema, mirrored);
    // Only schema changes change the schema: a page of record changes leaves its (large) JSON unwritten.
    if (mirrored.some((change) => !isRecordChange(change))) {
      await manager.update(MirrorBase, { id: mirror.id }, { schemaJson: JSON.stringify(schema) });
    }
  }

  committed(base: WatchedBase): void {
    if (this.gapped.delete(base.baseId)) this.onGap(base.baseId);
  }
}
