import { In, type DataSource, type EntityManager } from 'typeorm';
import { ChangeEntry, ChangeEntryField, ChangeOutbox, MonitoringConfig, type UpstreamWatch } from '../../entities/index.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { WebhookPayloadPage } from '../../upstream/webhook-types.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { scopeAllows, type ChangeEvent, type IngestedBase, type MonitoringScope } from './change-event.js';
import { insertChangeEntries } from '../../repositories/change-entries.repository.js';
import { bumpChangeVersions } from '../../repositories/change-version.js';
import { changesTablesIn } from '../../repositories/monitoring-config.repository.js';
import { advancePayloadCursor } from '../../repositories/upstream-watch.repository.js';
import type { ChangeSink } from './change-pipeline.js';
import { translatePayload, unnamedTableIds, type PayloadLike, type TableNames } from './payload-translator.js';
import { holderLossReason, isHolderLoss, isWebhookGone, type UpstreamWatchService } from './upstream-watch.service.js';

/** Told after a commit which configs got entries (the Changes-table writer, GraphQL subscriptions). */
export type EntriesLoggedListener = (configId: string, entries: ChangeEntry[]) => void;

export interface IngestResult {
  payloads: number;
  changes: number;
  entries: number;
}

const PAYLOAD_PAGE = 50;
const INSERT_CHUNK = 100;

/** Another ingestion of the same watch committed first: this run's payloads are already in. */
class CursorMoved extends Error {}

/**
 * Reads a watch's payloads from its stored cursor and logs them: for each page, the entries of every monitoring
 * config (as its scope allows), their Changes-table outbox rows, every sink's rows (webhook deliveries) and the new
 * cursor are committed in ONE transaction. A crash before the commit leaves the cursor where it was, so the same
 * payloads are read again and give the same positions; nothing is lost and nothing is logged twice.
 */
export class ChangeIngestService {
  private readonly sinks: ChangeSink[] = [];
  private readonly listeners: EntriesLoggedListener[] = [];
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: UpstreamAccess,
    private readonly watches: UpstreamWatchService,
  ) {}

  addSink(sink: ChangeSink): void {
    this.sinks.push(sink);
  }

  onEntriesLogged(listener: EntriesLoggedListener): void {
    this.listeners.push(listener);
  }

  ingest(watchId: string): Promise<IngestResult> {
    return withCallPurpose('audit', () => this.mutex.run(watchId, () => this.ingestPages(watchId)));
  }

  private async ingestPages(watchId: string): Promise<IngestResult> {
    const total: IngestResult = { payloads: 0, changes: 0, entries: 0 };
    const found = await this.watches.findById(watchId);
    if (found?.status !== 'active') return total;
    let watch: UpstreamWatch = found;
    let movedOnce = false;
    for (;;) {
      const reading = watch;
      // Payloads are read through the holder's connection: an integration sees only its own webhooks.
      let upstream: UpstreamClient;
      let page: WebhookPayloadPage;
      try {
        upstream = await this.access.forAccount(watch.accountId);
        page = await upstream.listWebhookPayloads(watch.baseId, watch.webhookId, { cursor: watch.payloadCursor, limit: PAYLOAD_PAGE });
      } catch (error) {
        // At most one replacement a run: a watch no connection can read must not bounce between holders. A webhook
        // deleted upstream is made again at once (not at the daily upkeep): the mirror learns of the gap and re-seeds.
        const replaced = isWebhookGone(error) && !movedOnce ? await this.watches.replaceGone(watch) : null;
        // The holder still reads it: not a holder lost either (the webhook is not moved to another account).
        if (replaced === 'listed') throw error;
        const moved =
          replaced ?? (isHolderLoss(error) && !movedOnce ? await this.watches.moveHolder(watch, holderLossReason(error)) : null);
        if (!moved) {
          // No one watching the base sees it any more: stop reading it (the upkeep looks again daily) rather than
          // failing every poll for ever.
          if ((await this.access.lostOn(error, watch.accountId, watch.baseId)) && (await this.watches.markLostIfUnseen(watch)))
            return total;
          throw error;
        }
        movedOnce = true;
        watch = moved;
        continue;
      }
      const payloads = page.payloads as PayloadLike[];
      const failedAt = payloads.findIndex((p) => p.error === true);
      const usable = failedAt === -1 ? payloads : payloads.slice(0, failedAt);
      // An error payload is consumed (it carries no change) and ends this webhook's life.
      const consumed = failedAt === -1 ? payloads.length : failedAt + 1;
      const names = JSON.parse(watch.tableNames) as TableNames;
      await this.learnTableNames(upstream, watch.baseId, usable, names);
      const changes = usable.flatMap((payload, i) => translatePayload(payload, `${reading.webhookId}:${reading.payloadCursor + i}`, names));
      const nextCursor = failedAt === -1 ? page.cursor : watch.payloadCursor + consumed;
      // Payload numbers go on when the upstream deletes old payloads: a first payload past the cursor means some are gone.
      const missedPayloads = page.cursor - payloads.length > watch.payloadCursor || page.mightHaveMissedPayloads === true;
      // Who gets the page is decided once it has been read: a connection changed meanwhile counts as it is now.
      const base: IngestedBase = {
        accountId: watch.accountId,
        baseId: watch.baseId,
        pausedAccounts: await this.watches.pausedAccounts(watch.baseId),
        webhookId: reading.webhookId,
        missedPayloads,
      };
      let logged: Map<string, ChangeEntry[]>;
      try {
        logged = await this.dataSource.transaction((manager) => this.commitPage(manager, reading, base, changes, nextCursor, names));
      } catch (error) {
        if (error instanceof CursorMoved) return total;
        throw error;
      }
      total.payloads += consumed;
      total.changes += changes.length;
      for (const [configId, entries] of logged) {
        total.entries += entries.length;
        for (const listener of this.listeners) listener(configId, entries);
      }
      for (const sink of this.sinks) sink.committed?.(base);
      watch.payloadCursor = nextCursor;
      watch.tableNames = JSON.stringify(names);

      if (failedAt !== -1) {
        const code = payloads[failedAt]!.code ?? 'unknown';
        await this.watches.markError(watch);
        watch = await this.watches.recreate(watch, `the upstream reported ${code}`);
        continue;
      }
      if (!page.mightHaveMore) return total;
    }
  }

  private async commitPage(
    manager: EntityManager,
    watch: UpstreamWatch,
    base: IngestedBase,
    changes: ChangeEvent[],
    nextCursor: number,
    names: TableNames,
  ): Promise<Map<string, ChangeEntry[]>> {
    const now = new Date();
    if (!(await advancePayloadCursor(manager, watch, nextCursor, JSON.stringify(names), now))) throw new CursorMoved();

    const logged = new Map<string, ChangeEntry[]>();
    // Every account's configs of the base: the watch is shared. Left out: accounts whose connection cannot reach the
    // upstream now, and configs whose account was found unable to see the base (the upkeep checks each account's view).
    const all = await manager.findBy(MonitoringConfig, { baseId: base.baseId });
    const configs = all.filter((c) => c.status !== 'monitored_base_missing' && !base.pausedAccounts.has(c.accountId));
    // A config left out misses these changes for good: a usage count must not rely on its log from here on.
    const missing = all.filter((c) => !configs.includes(c)).map((c) => c.id);
    if (changes.length && missing.length) await manager.update(MonitoringConfig, { id: In(missing) }, { logGapAt: now });
    // The service's own writes are not changes to log or forward: rows of every Changes table in this base, whichever
    // config (of any base, any account) writes there. Else a base logged into itself, or two bases logged into each
    // other (X→Y and Y→X), would log each written row again, for ever.
    const ownTables = await changesTablesIn(manager, base.baseId);
    const relevant = changes.filter((c) => !ownTables.has(c.tableId));
    for (const config of configs) {
      const kept = relevant.filter((c) => scopeAllows(config.scope as MonitoringScope, c.kind));
      const entries = await this.insertEntries(manager, config.id, kept, now);
      if (entries.length) logged.set(config.id, entries);
    }
    await bumpChangeVersions(manager, logged.keys());
    for (const sink of this.sinks) await sink.accept(manager, base, sink.includesOwnRows ? changes : relevant);
    return logged;
  }

  private async insertEntries(manager: EntityManager, configId: string, changes: ChangeEvent[], now: Date): Promise<ChangeEntry[]> {
    const entries = changes.map((change) =>
      Object.assign(new ChangeEntry(), {
        configId,
        occurredAt: change.occurredAt,
        eventType: change.eventType,
        kind: change.kind,
        tableId: change.tableId,
        tableName: change.tableName,
        recordId: change.recordId,
        fieldIds: JSON.stringify(change.fieldIds),
        source: change.source,
        userEmail: change.userEmail,
        userName: change.userName,
        beforeJson: change.before === null ? null : JSON.stringify(change.before),
        afterJson: change.after === null ? null : JSON.stringify(change.after),
        monitoringRecordId: null,
        position: change.position,
        loggedAt: now,
      }),
    );
    await insertChangeEntries(manager, configId, entries, INSERT_CHUNK);
    if (!entries.length) return entries;
    const fields = entries.flatMap((e) =>
      (JSON.parse(e.fieldIds) as string[]).map((fieldId) => ({ entryId: e.id, fieldId, configId, occurredAt: e.occurredAt })),
    );
    for (let i = 0; i < fields.length; i += INSERT_CHUNK) await manager.insert(ChangeEntryField, fields.slice(i, i + INSERT_CHUNK));
    const outbox = entries.map((e) => ({
      entryId: e.id,
      configId,
      batchToken: null,
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
    }));
    for (let i = 0; i < outbox.length; i += INSERT_CHUNK) await manager.insert(ChangeOutbox, outbox.slice(i, i + INSERT_CHUNK));
    return entries;
  }

  /** Payloads name a table only when it is created or renamed; others are looked up once in the base schema. */
  private async learnTableNames(upstream: UpstreamClient, baseId: string, payloads: PayloadLike[], names: TableNames): Promise<void> {
    if (!payloads.some((p) => unnamedTableIds(p, names).length)) return;
    for (const table of await upstream.getBaseSchema(baseId)) names[table.id] ??= table.name;
  }
}
