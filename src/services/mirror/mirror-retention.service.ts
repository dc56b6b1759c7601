import type { DataSource } from 'typeorm';
import { foldVersionsInto, prunableRecords } from '../../repositories/mirror.repository.js';
import type { MirrorReadService } from './mirror-read.service.js';
import { canonicalJson } from './record-state.js';

const CHUNK = 500;

/**
 * Versions older than AUDIT_RETENTION_DAYS go, but each record keeps the newest of them, made to hold the whole
 * record: its state at the oldest instant still kept stays answerable. One short transaction per record.
 */
export class MirrorRetentionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: MirrorReadService,
    private readonly retentionDays: number,
  ) {}

  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000).toISOString();
    let folded = 0;
    for (;;) {
      const records = await prunableRecords(this.dataSource, cutoff, CHUNK);
      if (!records.length) return folded;
      for (const { baseId, recordId, keep } of records) {
        const state = (await this.reads.foldedAt(baseId, recordId, { atOrBeforeSeq: keep })).at(-1)?.state ?? {};
        await this.dataSource.transaction((manager) => foldVersionsInto(manager, baseId, recordId, keep, canonicalJson(state)));
        folded += 1;
      }
    }
  }
}
