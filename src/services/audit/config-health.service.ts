import type { DataSource, Repository } from 'typeorm';
import { MonitoringConfig } from '../../entities/index.js';
import { safeError, type Logger } from '../../logger.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';

/**
 * ok: nothing known to be wrong; monitored_base_missing: the logged base is gone upstream (or no longer shared with
 * the token), so no change of it can be read; changes_table_missing: the Changes table, or the base holding it, is
 * gone, so no entry can be written; error: writing to the Changes table fails for another reason.
 */
export const MONITORING_HEALTH_STATES = ['ok', 'monitored_base_missing', 'changes_table_missing', 'error'] as const;
export type MonitoringHealthState = (typeof MONITORING_HEALTH_STATES)[number];

export interface MonitoringHealth {
  state: MonitoringHealthState;
  lastError: string | null;
  /** When the writer or the upkeep last established the state; null: not checked since the config was made. */
  checkedAt: Date | null;
}

export const healthOf = (config: MonitoringConfig): MonitoringHealth => ({
  state: config.status as MonitoringHealthState,
  lastError: config.lastError,
  checkedAt: config.statusCheckedAt,
});

/** States only the Changes-table writer can clear, by writing again. */
const WRITER_STATES: ReadonlySet<string> = new Set<MonitoringHealthState>(['changes_table_missing', 'error']);

/** An upstream answer that can mean "gone": Airtable says 403 for an unknown base and 404 for an unknown table. */
export const mayBeMissing = (error: unknown): boolean =>
  isUpstreamRequestError(error) && (error.upstreamStatus === 403 || error.upstreamStatus === 404);

type Finding = { state: 'ok' } | { state: 'monitored_base_missing' | 'changes_table_missing'; message: string };

/** Which upstream bases exist, and the tables of monitoring bases, looked up once per check. */
interface UpstreamView {
  bases: Set<string>;
  tables: Map<string, Promise<Set<string> | null>>;
  /** The account's own client: what its connection sees. */
  upstream: UpstreamClient;
}

/**
 * Whether a config's monitored base and Changes table are still there upstream: recorded on the config when the
 * Changes-table writer is refused or works again, and by the upkeep, with a log line at each change of state.
 */
export class ConfigHealthService {
  private readonly repository: Repository<MonitoringConfig>;

  constructor(
    dataSource: DataSource,
    private readonly access: UpstreamAccess,
    private readonly logger: Logger,
  ) {
    this.repository = dataSource.getRepository(MonitoringConfig);
  }

  /** Stores the state on the config (and on the given object); warns when it changes to a problem. */
  async record(config: MonitoringConfig, state: MonitoringHealthState, lastError: string | null): Promise<void> {
    const previous = config.status;
    const checkedAt = new Date();
    await this.repository.update({ id: config.id }, { status: state, lastError, statusCheckedAt: checkedAt });
    Object.assign(config, { status: state, lastError, statusCheckedAt: checkedAt });
    if (previous === state) return;
    const details = { configId: config.id, baseId: config.baseId, monitoringTableId: config.monitoringTableId, previous, state, lastError };
    if (state === 'ok') this.logger.info(details, 'monitoring config works again');
    else this.logger.warn(details, `monitoring config: ${state.replaceAll('_', ' ')}`);
  }

  /** A successful write: whatever the writer had found wrong is over (a missing monitored base is not its to clear). */
  async writeSucceeded(config: MonitoringConfig): Promise<void> {
    if (WRITER_STATES.has(config.status)) await this.record(config, 'ok', null);
  }

  /** A refused or failed write: a 403/404 is looked into (is the table or its base gone?), anything else is an error. */
  async writeFailed(config: MonitoringConfig, error: unknown): Promise<void> {
    const message = errorMessage(error);
    if (!mayBeMissing(error)) return this.record(config, 'error', message);
    let finding: Finding;
    try {
      finding = await withCallPurpose('audit', async () => this.locate(config, await this.view(config.accountId)));
    } catch (lookup) {
      this.logger.warn({ err: safeError(lookup), configId: config.id }, 'could not look up why a changes table write was refused');
      return this.record(config, 'error', message);
    }
    // Both there: the refusal has another reason (permissions), which the writer keeps running into.
    if (finding.state === 'ok') return this.record(config, 'error', message);
    return this.record(config, finding.state, finding.message);
  }

  /**
   * The upkeep: every config's bases and Changes table looked up (one listing of bases, one schema read per
   * monitoring base). A config found whole again is ok, unless the writer's own error stands (it clears that).
   */
  checkAll(): Promise<{ checked: number; missing: number }> {
    return withCallPurpose('audit', () => this.checkEach());
  }

  private async checkEach(): Promise<{ checked: number; missing: number }> {
    const configs = await this.repository.find({ order: { createdAt: 'ASC' } });
    if (!configs.length) return { checked: 0, missing: 0 };
    // One listing of bases per account: each account's configs are checked with what its own connection sees.
    const views = new Map<string, Promise<UpstreamView>>();
    let missing = 0;
    for (const config of configs) {
      try {
        let view = views.get(config.accountId);
        if (!view) {
          view = this.view(config.accountId);
          views.set(config.accountId, view);
        }
        const finding = await this.locate(config, await view);
        if (finding.state !== 'ok') {
          missing += 1;
          await this.record(config, finding.state, finding.message);
        } else if (config.status === 'error') {
          await this.record(config, 'error', config.lastError);
        } else {
          await this.record(config, 'ok', null);
        }
      } catch (error) {
        this.logger.warn({ err: safeError(error), configId: config.id }, 'could not check a monitoring config upstream');
      }
    }
    return { checked: configs.length, missing };
  }

  private async view(accountId: string): Promise<UpstreamView> {
    const upstream = await this.access.forAccount(accountId);
    return { bases: new Set((await upstream.listBases()).map((base) => base.id)), tables: new Map(), upstream };
  }

  /** The Changes table first: while it is missing nothing at all is logged. */
  private async locate(config: MonitoringConfig, view: UpstreamView): Promise<Finding> {
    const monitoredGone = !view.bases.has(config.baseId);
    const alsoMonitored = monitoredGone ? `; the monitored base ${config.baseId} is gone too` : '';
    if (!view.bases.has(config.monitoringBaseId)) {
      return {
        state: 'changes_table_missing',
        message: `The base ${config.monitoringBaseId} (${config.monitoringBaseName}) holding the Changes table is gone upstream or no longer shared with the token${alsoMonitored}`,
      };
    }
    const tables = await this.tablesOf(config.monitoringBaseId, view);
    if (!tables?.has(config.monitoringTableId)) {
      return {
        state: 'changes_table_missing',
        message: `The Changes table ${config.monitoringTableId} (${config.monitoringTableName}) is gone from base ${config.monitoringBaseId}${alsoMonitored}`,
      };
    }
    if (monitoredGone) {
      return {
        state: 'monitored_base_missing',
        message: `The monitored base ${config.baseId} (${config.baseName}) is gone upstream or no longer shared with the token`,
      };
    }
    return { state: 'ok' };
  }

  private tablesOf(baseId: string, view: UpstreamView): Promise<Set<string> | null> {
    let tables = view.tables.get(baseId);
    if (!tables) {
      tables = view.upstream.getBaseSchema(baseId).then(
        (schema) => new Set(schema.map((table) => table.id)),
        (error: unknown) => {
          if (mayBeMissing(error)) return null;
          throw error;
        },
      );
      view.tables.set(baseId, tables);
    }
    return tables;
  }
}

function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}
