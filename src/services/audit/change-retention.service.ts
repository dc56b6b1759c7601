import type { DataSource } from 'typeorm';
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
      const ids = await this.dataSource
        .createQueryBuilder()
        .select('e.id', 'id')
        .addSelect('e.config_id', 'configId')
        .from('change_entry', 'e')
        .where('e.occurred_at < :cutoff', { cutoff })
        .orderBy('e.occurred_at')
        .limit(CHUNK)
        .getRawMany<{ id: number; configId: string }>();
      if (!ids.length) return deleted;
      await this.dataSource.transaction(async (manager) => {
        const list = ids.map((r) => Number(r.id));
        await bumpChangeVersions(manager, ids.map((r) => r.configId));
        await manager.createQueryBuilder().delete().from('change_entry_field').where('entry_id IN (:...list)', { list }).execute();
        await manager.createQueryBuilder().delete().from('change_outbox').where('entry_id IN (:...list)', { list }).execute();
        await manager.createQueryBuilder().delete().from('change_entry').where('id IN (:...list)', { list }).execute();
      });
      deleted += ids.length;
    }
  }
}
