import type { EntityManager } from 'typeorm';
import { UpstreamWatch } from '../entities/index.js';

/**
 * Moves the watch's payload cursor to `nextCursor` (with the table names learnt) only if it still stands where `watch`
 * read it, on the same upstream webhook; false when another reader moved it first.
 */
export async function advancePayloadCursor(
  manager: EntityManager,
  watch: Pick<UpstreamWatch, 'id' | 'payloadCursor' | 'webhookId'>,
  nextCursor: number,
  tableNamesJson: string,
  now: Date,
): Promise<boolean> {
  const moved = await manager
    .createQueryBuilder()
    .update(UpstreamWatch)
    .set({ payloadCursor: nextCursor, tableNames: tableNamesJson, lastReadAt: now, updatedAt: now })
    .where('id = :id AND payload_cursor = :cursor AND webhook_id = :webhookId', {
      id: watch.id,
      cursor: watch.payloadCursor,
      webhookId: watch.webhookId,
    })
    .execute();
  return moved.affected === 1;
}
