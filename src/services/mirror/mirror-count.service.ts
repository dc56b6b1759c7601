import type { DataSource } from 'typeorm';
import { MirrorBase, MonitoringConfig, UpstreamWatch, UsageSnapshot, type TableCount, type UsageBase } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import { changedSince, findMirror, mirrorCounts } from '../../repositories/mirror.repository.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { SnapshotService } from '../snapshot.service.js';
import { dayNumber } from '../usage-insight/day-arithmetic.js';
import { FULL_COUNT_EVERY_DAYS, type LogReader, type Reachability } from '../usage-insight/usage-counting.service.js';
import { parseSchema } from './mirror-schema.js';

/** The upstream's clock (a change's time) against ours (a count's start). */
const CLOCK_MARGIN_MS = 5 * 60_000;

/**
 * Counting from the mirror (CONTRACT §11): a tracked base whose account watches it through a monitoring config and
 * whose mirror is `live` is counted with a query on our database, after reading the watch's new payloads (the only
 * upstream requests). A full upstream count still runs at least every 7 days and on POST …/run; each one is compared
 * with the mirror, and a difference re-seeds the mirror and is logged.
 */
export class MirrorCountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly snapshots: SnapshotService,
    private readonly log: LogReader,
    private readonly access: Reachability,
    private readonly logger: Logger,
    private readonly onMismatch: (baseId: string) => void,
  ) {}

  /** Records `day` from the mirror when it can be trusted; false when a full count is needed. */
  async countFromMirror(base: UsageBase, day: string, now: Date): Promise<boolean> {
    const lastFull = await this.dataSource.getRepository(UsageSnapshot).findOne({
      where: { usageBaseId: base.id, carriedOver: false, fromMirror: false },
      order: { date: 'DESC' },
    });
    if (!lastFull || lastFull.date >= day || dayNumber(day) - dayNumber(lastFull.date) >= FULL_COUNT_EVERY_DAYS) return false;
    if (!(await this.watchedByAccount(base)) || !(await this.access.canReach(base.accountId))) return false;
    const tally = { calls: 0 };
    const tables = await withCallPurpose('count', () => this.currentCounts(base.baseId), tally);
    if (!tables) return false;
    await this.snapshots.record(base.id, day, tables, new Date(), { apiCalls: tally.calls, fromMirror: true, startedAt: now });
    return true;
  }

  /**
   * After a full count that started at `startedAt`: the mirror, brought up to date, must hold the same figures. A
   * change the mirror applied since the count started makes the comparison meaningless, and it is skipped.
   */
  async compareWithFull(base: UsageBase, counted: TableCount[], startedAt: Date): Promise<'same' | 'differs' | 'skipped'> {
    if (!(await this.watchedByAccount(base))) return 'skipped';
    const mirrored = await withCallPurpose('count', () => this.currentCounts(base.baseId));
    if (!mirrored) return 'skipped';
    if (await changedSince(this.dataSource, base.baseId, new Date(startedAt.getTime() - CLOCK_MARGIN_MS).toISOString())) return 'skipped';
    const key = (tables: TableCount[]) =>
      JSON.stringify(
        tables.map((t) => [t.tableId, t.recordCount, t.fileCount, t.storageBytes]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
    if (key(mirrored) === key(counted)) return 'same';
    const mirror = await findMirror(this.dataSource, base.baseId);
    if (mirror?.status === 'live') {
      const reason = 'a full count differed from the mirror';
      await this.dataSource.manager.update(
        MirrorBase,
        { id: mirror.id, status: 'live' },
        { status: 'gap', gapReason: reason, updatedAt: new Date() },
      );
      this.onMismatch(base.baseId);
    }
    this.logger.warn(
      { baseId: base.baseId, usageBaseId: base.id, counted, mirrored },
      'a full count differed from the mirror: re-seeding it',
    );
    return 'differs';
  }

  async markFullCount(baseId: string, at: Date): Promise<void> {
    await this.dataSource.manager.update(MirrorBase, { baseId }, { fullCountAt: at });
  }

  /** The account reads the mirror through one of its own monitoring configs of the base (CONTRACT §11). */
  private watchedByAccount(base: UsageBase): Promise<boolean> {
    return this.dataSource.manager.existsBy(MonitoringConfig, { accountId: base.accountId, baseId: base.baseId });
  }

  /** The mirror's figures after reading the watch's new payloads; null unless it is live before and after. */
  private async currentCounts(baseId: string): Promise<TableCount[] | null> {
    const before = await findMirror(this.dataSource, baseId);
    if (before?.status !== 'live') return null;
    const watch = await this.dataSource.manager.findOneBy(UpstreamWatch, { baseId, status: 'active' });
    if (!watch) return null;
    try {
      await this.log.ingest(watch.id);
    } catch {
      return null;
    }
    const after = await findMirror(this.dataSource, baseId);
    if (after?.status !== 'live' || after.generation !== before.generation) return null;
    const counts = new Map((await mirrorCounts(this.dataSource, baseId)).map((count) => [count.tableId, count]));
    return parseSchema(after.schemaJson).tables.map((table) => {
      const count = counts.get(table.id);
      return {
        tableId: table.id,
        tableName: table.name,
        recordCount: count?.recordCount ?? 0,
        storageBytes: count?.storageBytes ?? 0,
        fileCount: count?.fileCount ?? 0,
      };
    });
  }
}
