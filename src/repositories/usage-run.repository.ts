import type { Repository } from 'typeorm';
import type { UsageRun } from '../entities/index.js';

/**
 * Takes over the base's run of `localDay` for `run` when it failed, or is still running but started before
 * `staleBefore` (its process died); true when this update took it.
 */
export async function takeOverRun(
  runs: Repository<UsageRun>,
  run: Pick<UsageRun, 'id' | 'startedAt'>,
  usageBaseId: string,
  localDay: string,
  staleBefore: string,
): Promise<boolean> {
  const taken = await runs
    .createQueryBuilder()
    .update()
    .set({ id: run.id, status: 'running', startedAt: run.startedAt, finishedAt: null, error: null })
    .where(
      "usage_base_id = :usageBaseId AND local_day = :localDay AND (status = 'failed' OR (status = 'running' AND started_at < :staleBefore))",
      {
        usageBaseId,
        localDay,
        staleBefore,
      },
    )
    .execute();
  return taken.affected === 1;
}

/** The successful runs of these local days (base and day only). */
export function successfulRunsOn(runs: Repository<UsageRun>, days: string[]): Promise<Array<Pick<UsageRun, 'usageBaseId' | 'localDay'>>> {
  return runs
    .createQueryBuilder('r')
    .select(['r.usageBaseId', 'r.localDay'])
    .where('r.localDay IN (:...days)', { days: [...days, ''] })
    .andWhere("r.status = 'ok'")
    .getMany();
}
