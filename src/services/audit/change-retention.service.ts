import type { DataSource } from 'typeorm';
import { changeEntriesBefore, deleteChangeEntries } from '../../repositories/change-entries.repository.js';
import { bumpChangeVersions } from '../../repositories/change-version.js';

const CHUNK = 5_000;

/** Deletes change entries older than the retention age, in chunks so writers are never blocked for long. */
export class ChangeRetentionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly retentionDays: number,
  ) {}

  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    for (;;) {
      const ids = await changeEntriesBefore(this.dataSource, cutoff, CHUNK);
      if (!ids.length) return deleted;
      await this.dataSource.transaction(async (manager) => {
        await bumpChangeVersions(
          manager,
          ids.map((r) => r.configId),
        );
        await deleteChangeEntries(
          manager,
          ids.map((r) => Number(r.id)),
        );
      });
      deleted += ids.length;
    }
  }
}
