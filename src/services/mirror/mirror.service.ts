import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MirrorBase, MonitoringConfig } from '../../entities/index.js';
import { safeError, type Logger } from '../../logger.js';
import { isUniqueViolation } from '../../repositories/db-errors.js';
import { deleteMirrorData, findMirror, mirroredBaseIds } from '../../repositories/mirror.repository.js';
import { monitoredBases } from '../../repositories/watch-demand.repository.js';

/**
 * Which bases are mirrored: every base some monitoring config (of any account) watches, one mirror each. A mirror is
 * made with its base's first config and seeded by the `mirror.seed` job; it goes, with all it keeps, with the last.
 */
export class MirrorService {
  private seedRequests: Array<(baseId: string) => Promise<void>> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  /** The job queue's hook: a seed of the base is wanted (idempotent per base). */
  onSeedNeeded(request: (baseId: string) => Promise<void>): void {
    this.seedRequests.push(request);
  }

  find(baseId: string): Promise<MirrorBase | null> {
    return findMirror(this.dataSource, baseId);
  }

  /** The base is mirrored from now on: a new mirror is seeded; one in `gap` is seeded again. */
  async ensure(baseId: string): Promise<void> {
    const existing = await this.find(baseId);
    if (existing && existing.status === 'live') return;
    if (!existing) {
      const now = new Date();
      const mirror = Object.assign(new MirrorBase(), {
        id: randomUUID(),
        baseId,
        status: 'seeding',
        gapReason: null,
        webhookId: null,
        generation: 0,
        schemaJson: '{"tables":[]}',
        seededAt: null,
        continuousSince: null,
        fullCountAt: null,
        createdAt: now,
        updatedAt: now,
      });
      try {
        await this.dataSource.manager.insert(MirrorBase, mirror);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    await this.requestSeed(baseId);
  }

  /** No monitoring config watches the base any more: its mirror and everything it keeps are deleted. */
  async release(baseId: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      if (await manager.existsBy(MonitoringConfig, { baseId })) return false;
      if (!(await findMirror(manager, baseId))) return false;
      await deleteMirrorData(manager, baseId);
      this.logger.info({ baseId }, 'mirror deleted: no monitoring config watches the base');
      return true;
    });
  }

  /** Start-up and daily: a mirror for every watched base (seeded where not live), none for the others. */
  async reconcile(): Promise<{ ensured: number; released: number }> {
    const watched = new Set((await monitoredBases(this.dataSource.manager)).map((base) => base.baseId));
    let ensured = 0;
    for (const baseId of watched) {
      try {
        await this.ensure(baseId);
        ensured += 1;
      } catch (error) {
        this.logger.warn({ err: safeError(error), baseId }, 'could not plan a mirror');
      }
    }
    let released = 0;
    for (const baseId of await mirroredBaseIds(this.dataSource)) if (!watched.has(baseId) && (await this.release(baseId))) released += 1;
    return { ensured, released };
  }

  async requestSeed(baseId: string): Promise<void> {
    for (const request of this.seedRequests) await request(baseId);
  }
}
