import { randomUUID } from 'node:crypto';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { MirrorRestore, UpstreamConnection, UpstreamWatch } from '../../entities/index.js';
import { conflict, forbidden, invalidRequest, isAppError, notFound } from '../../errors.js';
import { safeError, type Logger } from '../../logger.js';
import { findMirror, lockMirror, recordRows, recentlyCreatedRecords } from '../../repositories/mirror.repository.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamClient } from '../../upstream/client.js';
import { MAX_RECORDS_PER_WRITE } from '../../upstream/client.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import type { ChangeIngestService } from '../audit/change-ingest.service.js';
import { KeyedMutex } from '../keyed-mutex.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import type { RestoreInput } from './mirror.input.js';
import type { MirrorReadService } from './mirror-read.service.js';
import { changedBack, writableCells, type PlanContext, type RestoreItem } from './restore-plan.js';
import { canonicalJson, type Cells } from './record-state.js';

export interface RestoreView {
  id: string;
  status: MirrorRestore['status'];
  at: Date;
  tableId: string;
  create: number;
  update: number;
  skippedFieldIds: string[];
  progress: { done: number; total: number };
  createdRecordIds: Record<string, string>;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

interface InFlight {
  /** Index in the plan of the batch's first item. */
  start: number;
  count: number;
  sentAt: string;
}

const WRITE_LEVELS = new Set(['edit', 'create', 'owner']);
const WRITE_SCOPE = 'data.records:write';

/** A resumed run found part of its interrupted batch of creates: it cannot tell what the rest became, so it stops. */
class BatchUnaccounted extends Error {}

/** Thrown by a resumed run whose last batch of creates cannot be accounted for yet: run again later. */
export class RestoreNotSettled extends Error {
  constructor(readonly retryAt: Date) {
    super('the last batch of creates is not settled yet');
  }
}

/**
 * Restores mirrored records (CONTRACT §11): re-creates deleted ones with their values, sets fields of existing ones
 * back to their values at an instant. Planned when asked (a dry run stops there), then written by the
 * `mirror.restore` job through the account's own connection, 10 records a request. Each batch of creates is noted
 * before it is sent; a run resumed after a crash finds that batch's records in the mirror (they come back through the
 * watch) instead of creating them again.
 */
export class MirrorRestoreService {
  private runRequests: Array<(restoreId: string) => Promise<void>> = [];
  /** One run of a restore at a time in this process: a run the job queue gave up on as expired may still be writing. */
  private readonly runs = new KeyedMutex();

  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: MirrorReadService,
    private readonly access: UpstreamAccess,
    private readonly ingest: ChangeIngestService,
    private readonly logger: Logger,
    private readonly options: {
      /** MIRROR_RESTORE_SETTLE_MS: how long after a batch of creates was sent a resumed run looks for its records. */
      settleMs: number;
      /**
       * How long a batch of creates (with the transport's retries, a Retry-After included) may take before it is given
       * up and left in flight: half the settling time, so that no request of a run lands after another run (another
       * process that took the job) may have concluded that the batch was not made and sent it again. Under the job's
       * lock lifetime (60 s), it also lets the run renew its lock before another process can take the job.
       */
      requestDeadlineMs: number;
    },
  ) {}

  onRunNeeded(request: (restoreId: string) => Promise<void>): void {
    this.runRequests.push(request);
  }

  async create(accountId: string, configId: string, input: RestoreInput): Promise<RestoreView> {
    const { config, mirror } = await this.reads.mirrorOf(accountId, configId);
    if (mirror.status === 'seeding' && mirror.seededAt === null) {
      throw conflict('The mirror of this base is being seeded: restore once GET …/mirror says live');
    }
    const at = input.at ? this.reads.checkedInstant(mirror, input.at) : new Date().toISOString();
    const upstream = await this.access.forAccount(accountId);
    await this.requireWriteAccess(accountId, config.baseId);
    const tables = await withCallPurpose('audit', () => upstream.getBaseSchema(config.baseId));
    const table = tables.find((t) => t.id === input.tableId);
    if (!table) throw notFound('Table');
    const rows = await recordRows(this.dataSource, mirror.baseId, input.recordIds);
    for (const recordId of input.recordIds) {
      if (rows.get(recordId)?.table_id !== input.tableId) throw notFound(`Record ${recordId} of table ${input.tableId}`);
    }
    const recreated = new Set(input.recordIds.filter((id) => rows.get(id)!.deleted_at !== null));
    // Each record's values at the instant: before its deletion for one deleted by then.
    const states = new Map<string, Cells>();
    for (const recordId of new Set(input.recordIds)) {
      const then = (await this.reads.foldedAt(mirror.baseId, recordId, { at })).at(-1);
      if (!then) throw invalidRequest(`Record ${recordId} did not exist at ${at}`);
      states.set(recordId, then.state);
    }
    const earlier = await this.earlierRecreations(this.dataSource.manager, mirror.baseId);
    refuseRecreatedAgain(recreated, earlier, accountId);
    const restoredAs = new Map([...earlier].flatMap(([oldId, { newId }]) => (newId ? [[oldId, newId] as const] : [])));
    const linked = await this.deletedAmongLinks(mirror.baseId, states.values(), restoredAs);
    const context: PlanContext = {
      fields: new Map(table.fields.map((field) => [field.id, { id: field.id, name: field.name, type: field.type }])),
      recreated,
      isDeleted: (id) => linked.has(id),
      restoredAs,
      // Fields asked for that the table does not have (any more) are skipped and listed like the others.
      skipped: new Set((input.fieldIds ?? []).filter((fieldId) => !table.fields.some((field) => field.id === fieldId))),
    };
    const only = input.fieldIds ? new Set(input.fieldIds) : undefined;
    const items: RestoreItem[] = [];
    for (const [recordId, then] of states) {
      // fieldIds choose among an existing record's fields; a deleted one comes back whole.
      if (recreated.has(recordId)) {
        items.push({ recordId, action: 'create', ...writableCells(then, context) });
        continue;
      }
      const back = changedBack(then, JSON.parse(rows.get(recordId)!.fields_json) as Cells, only);
      const cells = writableCells(back, context);
      if (Object.keys(cells.fields).length || Object.keys(cells.links).length) items.push({ recordId, action: 'update', ...cells });
    }
    // Creates first (updates may link to them), in the order asked.
    items.sort((a, b) => (a.action === b.action ? 0 : a.action === 'create' ? -1 : 1));
    const now = new Date();
    const restore = Object.assign(new MirrorRestore(), {
      id: randomUUID(),
      configId: config.id,
      accountId,
      baseId: config.baseId,
      tableId: input.tableId,
      at: new Date(at),
      status: 'planned' as const,
      planJson: JSON.stringify(items),
      done: 0,
      total: items.length,
      createCount: items.filter((item) => item.action === 'create').length,
      updateCount: items.filter((item) => item.action === 'update').length,
      skippedFieldIds: JSON.stringify([...context.skipped].sort()),
      createdRecordIds: '{}',
      inFlightJson: null,
      error: null,
      createdAt: now,
      finishedAt: null,
    });
    if (input.dryRun) return toView(restore);
    if (!items.length) Object.assign(restore, { status: 'done', finishedAt: now });
    // Under the mirror's lock, so two restores asked at once (in any process) cannot both re-create a record.
    await this.dataSource.transaction(async (manager) => {
      await lockMirror(manager, mirror.baseId, now);
      if (recreated.size) refuseRecreatedAgain(recreated, await this.earlierRecreations(manager, mirror.baseId), accountId);
      await manager.insert(MirrorRestore, restore);
    });
    if (items.length) for (const request of this.runRequests) await request(restore.id);
    return toView(restore);
  }

  async get(accountId: string, configId: string, restoreId: string): Promise<RestoreView> {
    const { config } = await this.reads.mirrorOf(accountId, configId);
    const restore = await this.dataSource.manager.findOneBy(MirrorRestore, { id: restoreId, configId: config.id, accountId });
    if (!restore) throw notFound('Restore');
    return toView(restore);
  }

  /**
   * The job's run: writes what is left, from where the last run stopped. `keepAlive` is called after each request
   * (the job's lock); a run started while another still writes the same restore waits for it and reads where it ended.
   */
  run(restoreId: string, keepAlive: () => Promise<void> = async () => undefined): Promise<RestoreView | null> {
    return this.runs.run(restoreId, () => this.runAlone(restoreId, keepAlive));
  }

  private async runAlone(restoreId: string, keepAlive: () => Promise<void>): Promise<RestoreView | null> {
    const restore = await this.dataSource.manager.findOneBy(MirrorRestore, { id: restoreId });
    if (!restore || restore.status === 'done' || restore.status === 'failed') return restore ? toView(restore) : null;
    try {
      return await withCallPurpose('audit', () => this.write(restore, keepAlive));
    } catch (error) {
      if (error instanceof RestoreNotSettled || !isFinal(error)) throw error;
      const message = error instanceof Error ? error.message.slice(0, 500) : 'restore failed';
      await this.dataSource.manager.update(MirrorRestore, { id: restore.id }, { status: 'failed', error: message, finishedAt: new Date() });
      this.logger.warn({ restoreId, error: message }, 'restore failed');
      return toView({ ...restore, status: 'failed', error: message });
    }
  }

  private async write(restore: MirrorRestore, keepAlive: () => Promise<void>): Promise<RestoreView> {
    const items = JSON.parse(restore.planJson) as RestoreItem[];
    const created = JSON.parse(restore.createdRecordIds) as Record<string, string>;
    await this.update(restore, { status: 'running' });
    // Accounting for a batch needs no write access: a lost connection must not fail it while its records are unknown.
    if (restore.inFlightJson) {
      await this.settle(restore, items, created);
      await keepAlive();
    }
    const upstream = await this.access.forAccount(restore.accountId);
    let relinked = false;
    while (restore.done < items.length) {
      const start = restore.done;
      const batch = sameActionRun(items, start, MAX_RECORDS_PER_WRITE);
      // Creates come first: once they are all made, links between them are set before any update can fail.
      if (batch[0]!.action === 'update' && !relinked) {
        await this.relink(upstream, restore, items, created);
        relinked = true;
      }
      if (batch[0]!.action === 'create') {
        const inFlight: InFlight = { start, count: batch.length, sentAt: new Date().toISOString() };
        await this.update(restore, { inFlightJson: JSON.stringify(inFlight) });
        const sent = batch.map((item) => ({ fields: item.fields }));
        const records = await upstream
          .createRecords(restore.baseId, restore.tableId, sent, { typecast: true }, AbortSignal.timeout(this.options.requestDeadlineMs))
          .catch(async (error: unknown) => {
            // Refused: none of the batch was made. Any other failure leaves it in flight, for settle to account for.
            if (isFinal(error)) await this.update(restore, { inFlightJson: null });
            throw error;
          });
        for (const [i, item] of batch.entries()) created[item.recordId] = records[i]!.id;
        await this.update(restore, { done: start + batch.length, createdRecordIds: JSON.stringify(created), inFlightJson: null });
        await keepAlive();
        continue;
      }
      await upstream.updateRecords(
        restore.baseId,
        restore.tableId,
        batch.map((item) => ({ id: item.recordId, fields: { ...item.fields, ...mapLinks(item.links, created) } })),
        { typecast: true },
      );
      await this.update(restore, { done: start + batch.length });
      await keepAlive();
    }
    if (!relinked) await this.relink(upstream, restore, items, created);
    await this.update(restore, { status: 'done', finishedAt: new Date() });
    return toView(restore);
  }

  /** Re-created records whose links name other re-created records: the links set now that the new ids are known. */
  private async relink(
    upstream: UpstreamClient,
    restore: MirrorRestore,
    items: RestoreItem[],
    created: Record<string, string>,
  ): Promise<void> {
    const updates = items
      .filter((item) => item.action === 'create' && Object.keys(item.links).length && created[item.recordId])
      .map((item) => ({ id: created[item.recordId]!, fields: mapLinks(item.links, created) }));
    if (updates.length) await upstream.updateRecords(restore.baseId, restore.tableId, updates, { typecast: true });
  }

  /**
   * A batch of creates was sent and the run stopped before its answer was stored: the records it made are found in
   * the mirror (created since it was sent, with the values sent), so none is made twice. Until the watch can have
   * brought them, the run waits.
   */
  private async settle(restore: MirrorRestore, items: RestoreItem[], created: Record<string, string>): Promise<void> {
    const inFlight = JSON.parse(restore.inFlightJson!) as InFlight;
    const sentAt = new Date(inFlight.sentAt);
    const watch = await this.dataSource.manager.findOneBy(UpstreamWatch, { baseId: restore.baseId });
    // The watch's holder may be another account, and its failures say nothing of this batch: look again later.
    if (watch) {
      await this.ingest.ingest(watch.id).catch((error: unknown) => {
        this.logger.warn({ err: safeError(error), restoreId: restore.id }, 'restore: could not read the watch to settle a batch');
        throw new RestoreNotSettled(new Date(Date.now() + this.options.settleMs));
      });
    }
    // Neither a record made by an earlier batch nor one the plan restores (a record deleted just before, with the
    // same values as created, is no answer to this batch).
    const taken = new Set([...Object.values(created), ...items.map((item) => item.recordId)]);
    const candidates = await recentlyCreatedRecords(
      this.dataSource,
      restore.baseId,
      restore.tableId,
      new Date(sentAt.getTime() - 5_000).toISOString(),
    );
    const batch = items.slice(inFlight.start, inFlight.start + inFlight.count);
    let found = 0;
    for (const item of batch) {
      const match = candidates.find((row) => !taken.has(row.record_id) && holdsSent(JSON.parse(row.fields_json) as Cells, item.fields));
      if (!match) continue;
      taken.add(match.record_id);
      created[item.recordId] = match.record_id;
      found += 1;
    }
    if (found === batch.length) {
      await this.update(restore, { done: inFlight.start + inFlight.count, createdRecordIds: JSON.stringify(created), inFlightJson: null });
      return;
    }
    // Made records may be upstream and not here yet: while the mirror is not live, changes wait as pending for a seed
    // (or were missed), and the watch may not have brought them all yet.
    if ((await findMirror(this.dataSource, restore.baseId))?.status !== 'live') {
      throw new RestoreNotSettled(new Date(Date.now() + this.options.settleMs));
    }
    const settledAt = sentAt.getTime() + this.options.settleMs;
    if (Date.now() < settledAt) throw new RestoreNotSettled(new Date(settledAt));
    // Settled: some found and not the rest cannot be told apart from records made and changed since; none found, the
    // request never arrived.
    if (found > 0) {
      // Those found are known: their new ids are kept (and named to anyone restoring them again); the batch stays taken.
      await this.update(restore, { createdRecordIds: JSON.stringify(created) });
      throw new BatchUnaccounted(`Only ${found} of the ${batch.length} records of an interrupted batch were found`);
    }
    await this.update(restore, { inFlightJson: null });
  }

  private async update(restore: MirrorRestore, changes: Partial<MirrorRestore>): Promise<void> {
    Object.assign(restore, changes);
    await this.dataSource.manager.update(MirrorRestore, { id: restore.id }, changes);
  }

  /** 403 forbidden when the connection cannot write records of the base (its scopes, or its permission on the base). */
  private async requireWriteAccess(accountId: string, baseId: string): Promise<void> {
    const connection = await this.dataSource.manager.findOneBy(UpstreamConnection, { accountId });
    const scopes = connection?.scopes ? (JSON.parse(connection.scopes) as string[]) : null;
    if (scopes && !scopes.includes(WRITE_SCOPE))
      throw forbidden(`This account's upstream connection lacks the ${WRITE_SCOPE} scope a restore needs`);
    const base = (await this.access.listBases(accountId)).find((candidate) => candidate.id === baseId);
    if (!base) throw notFound('Monitoring config');
    if (!WRITE_LEVELS.has(base.permissionLevel)) {
      throw forbidden(`This account's upstream connection can only ${base.permissionLevel} base ${baseId}: a restore needs edit access`);
    }
  }

  /** Deleted records of the base that restores re-created: old id → new id. */
  async restoredAs(baseId: string): Promise<Map<string, string>> {
    const restores = await this.dataSource.manager.find(MirrorRestore, { select: { createdRecordIds: true }, where: { baseId } });
    return new Map(restores.flatMap((restore) => Object.entries(JSON.parse(restore.createdRecordIds) as Record<string, string>)));
  }

  /**
   * The deleted records earlier restores of the base re-created (old id → new id and the restore), and those a restore
   * still to run will re-create (no new id yet). A failed restore's creates not made are free again.
   */
  private async earlierRecreations(manager: EntityManager, baseId: string): Promise<Map<string, Recreation>> {
    const restores = await manager.find(MirrorRestore, {
      select: { id: true, accountId: true, status: true, createdRecordIds: true, inFlightJson: true },
      where: { baseId },
    });
    const unfinished = (restore: MirrorRestore) => restore.status === 'planned' || restore.status === 'running';
    // A restore that failed with a batch of creates sent and not confirmed may have made them: they stay taken. Only
    // these plans are read (they hold cell values for up to 1,000 records each).
    const pending = restores.filter((restore) => unfinished(restore) || restore.inFlightJson !== null).map((restore) => restore.id);
    const plans = pending.length
      ? await manager.find(MirrorRestore, { select: { id: true, planJson: true }, where: { id: In(pending) } })
      : [];
    const planOf = new Map(plans.map((plan) => [plan.id, JSON.parse(plan.planJson) as RestoreItem[]]));
    const recreations = new Map<string, Recreation>();
    for (const restore of restores) {
      const created = JSON.parse(restore.createdRecordIds) as Record<string, string>;
      for (const [oldId, newId] of Object.entries(created))
        recreations.set(oldId, { restoreId: restore.id, restoreAccountId: restore.accountId, newId });
      const items = planOf.get(restore.id) ?? [];
      const inFlight = restore.inFlightJson ? (JSON.parse(restore.inFlightJson) as InFlight) : undefined;
      const taken = unfinished(restore) || !inFlight ? items : items.slice(inFlight.start, inFlight.start + inFlight.count);
      for (const item of taken) {
        if (item.action === 'create' && !created[item.recordId])
          recreations.set(item.recordId, { restoreId: restore.id, restoreAccountId: restore.accountId, newId: null });
      }
    }
    return recreations;
  }

  /** Records deleted now among those the planned values link to (re-created ones counted under their new ids). */
  private async deletedAmongLinks(baseId: string, states: Iterable<Cells>, restoredAs: ReadonlyMap<string, string>): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const state of states) {
      for (const value of Object.values(state)) {
        if (!Array.isArray(value)) continue;
        for (const id of value) if (typeof id === 'string' && id.startsWith('rec')) ids.add(restoredAs.get(id) ?? id);
      }
    }
    const found = await recordRows(this.dataSource, baseId, [...ids]);
    return new Set([...found.values()].filter((row) => row.deleted_at !== null).map((row) => row.record_id));
  }
}

interface Recreation {
  restoreId: string;
  restoreAccountId: string;
  /** Null while the restore has not made it yet. */
  newId: string | null;
}

/** 409 when a deleted record asked for was (or is being) re-created by an earlier restore: it would come back twice. */
function refuseRecreatedAgain(recreated: ReadonlySet<string>, earlier: ReadonlyMap<string, Recreation>, accountId: string): void {
  const again = [...recreated].filter((recordId) => earlier.has(recordId));
  if (!again.length) return;
  const said = again.slice(0, 5).map((recordId) => {
    const { restoreId, restoreAccountId, newId } = earlier.get(recordId)!;
    // The new record is the base's (the mirror is shared); another account's restore is not named.
    const by = restoreAccountId === accountId ? `restore ${restoreId}` : 'a restore of another account';
    return newId
      ? `${recordId} (re-created as ${newId} by ${by}: restore that record instead)`
      : `${recordId} (being re-created by ${by}, or sent by it as it stopped: look for it in the base)`;
  });
  const more = again.length > said.length ? ` and ${again.length - said.length} more` : '';
  throw conflict(`Deleted records already restored: ${said.join(', ')}${more}`);
}

function mapLinks(links: Record<string, string[]>, created: Record<string, string>): Cells {
  return Object.fromEntries(
    Object.entries(links).map(([fieldId, ids]) => [fieldId, ids.map((id) => created[id] ?? id).filter((id) => id.startsWith('rec'))]),
  );
}

/** The items of the same action from `start`, at most `max`: creates and updates never share a request. */
function sameActionRun(items: RestoreItem[], start: number, max: number): RestoreItem[] {
  const run: RestoreItem[] = [];
  for (let i = start; i < items.length && run.length < max && items[i]!.action === items[start]!.action; i += 1) run.push(items[i]!);
  return run;
}

/** Whether a record holds what a create sent (empty values absent; attachments by their file names). */
function holdsSent(record: Cells, sent: Cells): boolean {
  return Object.entries(sent).every(([fieldId, value]) => {
    const held = record[fieldId];
    if (value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0)) return held === undefined;
    if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null && 'url' in item)) {
      return Array.isArray(held) && held.length === value.length;
    }
    return canonicalJson({ v: held }) === canonicalJson({ v: value });
  });
}

/**
 * Refusals that running again will not change: the write is given up and the restore says why (its unconfirmed
 * creates stay taken). A connection gone or needing re-authorisation is one: retried for ever, the restore would keep
 * its records from every other restore.
 */
function isFinal(error: unknown): boolean {
  if (error instanceof BatchUnaccounted || (isAppError(error) && error.code === 'upstream_not_connected')) return true;
  // Every refusal but a timeout and a rate limit (413, 409, 422, …); 5xx and unreadable answers are tried again.
  const status = isUpstreamRequestError(error) ? (error.upstreamStatus ?? 0) : 0;
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function toView(restore: MirrorRestore): RestoreView {
  return {
    id: restore.id,
    status: restore.status,
    at: restore.at,
    tableId: restore.tableId,
    create: restore.createCount,
    update: restore.updateCount,
    skippedFieldIds: JSON.parse(restore.skippedFieldIds) as string[],
    progress: { done: restore.done, total: restore.total },
    createdRecordIds: JSON.parse(restore.createdRecordIds) as Record<string, string>,
    error: restore.error,
    createdAt: restore.createdAt,
    finishedAt: restore.finishedAt,
  };
}
