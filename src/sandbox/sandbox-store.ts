import type { EventEmitter } from 'node:events';
import { DEFAULT_ACTOR } from './actor.js';
import { summarizeBase, type BaseSummary } from './base-summary.js';
import { createIdGenerator, type IdGenerator } from './id-generator.js';
import { buildLargeBase } from './large-base.js';
import { loadBases, saveBases, type StoreState } from './persistence/saved-state.js';
import { createRandom, hashSeed, type ResumableRandom } from './prng.js';
import {
  createRecords,
  deleteRecords,
  findField,
  updateRecords,
  type MutationContext,
  type RecordUpdateInput,
} from './record-mutations.js';
import type { ChangeActor } from './sandbox-change.types.js';
import { modelNotFound } from './sandbox-errors.js';
import * as schema from './schema-mutations.js';
import type {
  AddBaseOptions,
  BaseDefinition,
  FieldConfig,
  LargeBaseOptions,
  SandboxBase,
  SandboxField,
  SandboxRecord,
  SandboxTable,
  TableConfig,
} from './sandbox.types.js';

export interface RecordWriteOptions {
  typecast?: boolean;
  actor?: ChangeActor;
}

export interface RecordUpdateOptions extends RecordWriteOptions {
  /** PUT semantics: cells not named in the update are cleared. */
  replace?: boolean;
}

export interface StoreOptions {
  /** Resumes a saved store: its bases, and ids continuing where they stopped. Default: empty. */
  saved?: StoreState;
  /** Called after content was added without a change event (seeding), e.g. to save the state. */
  onSeeded?: () => void;
}

/**
 * The sandbox's data. Lookups throw Airtable's 403 for unknown bases and tables; mutations validate like the API
 * (but without its 10-records-per-request limit) and emit a `change` event. Tables may be named by id or name.
 */
export class SandboxStore {
  private readonly bases = new Map<string, SandboxBase>();
  private readonly random: ResumableRandom;
  private readonly ids: IdGenerator;
  private readonly context: MutationContext;
  private readonly seeding: MutationContext;
  private readonly onSeeded: () => void;
  private largeBases: number;

  constructor(
    private readonly seed: number,
    events: EventEmitter,
    options: StoreOptions = {},
  ) {
    this.random = createRandom(options.saved?.random ?? hashSeed(seed, 'store'));
    this.ids = createIdGenerator(this.random);
    this.context = { ids: this.ids, emit: (change) => events.emit('change', change) };
    this.seeding = { ids: this.ids };
    this.onSeeded = options.onSeeded ?? (() => undefined);
    this.largeBases = options.saved?.largeBases ?? 0;
    for (const base of loadBases(options.saved?.bases ?? [])) this.bases.set(base.id, base);
  }

  /** Everything needed to resume this store later (the bases are shared, not copied: serialise at once). */
  exportState(): StoreState {
    return { random: this.random.state(), largeBases: this.largeBases, bases: saveBases(this.bases.values()) };
  }

  listBases(): SandboxBase[] {
    return [...this.bases.values()];
  }

  getBase(baseId: string): SandboxBase | undefined {
    return this.bases.get(baseId);
  }

  requireBase(baseId: string): SandboxBase {
    const base = this.bases.get(baseId);
    if (!base) throw modelNotFound();
    return base;
  }

  getTable(baseId: string, tableIdOrName: string): SandboxTable | undefined {
    const tables = this.bases.get(baseId)?.tables ?? [];
    return tables.find((table) => table.id === tableIdOrName) ?? tables.find((table) => table.name === tableIdOrName);
  }

  requireTable(baseId: string, tableIdOrName: string): { base: SandboxBase; table: SandboxTable } {
    const base = this.requireBase(baseId);
    const table = this.getTable(baseId, tableIdOrName);
    if (!table) throw modelNotFound();
    return { base, table };
  }

  requireField(table: SandboxTable, fieldIdOrName: string): SandboxField {
    const field = findField(table, fieldIdOrName);
    if (!field) throw modelNotFound();
    return field;
  }

  getRecord(baseId: string, tableIdOrName: string, recordId: string): SandboxRecord | undefined {
    return this.getTable(baseId, tableIdOrName)?.records.get(recordId);
  }

  /** Custom content; records are given by field name. Seeding emits no change events. */
  addBase(definition: BaseDefinition, options: AddBaseOptions = {}): SandboxBase {
    const base: SandboxBase = { id: this.ids.next('app'), name: definition.name, permissionLevel: 'create', tables: [] };
    const start = options.createdTimeStart?.getTime();
    let recordIndex = 0;
    const createdTime = start === undefined ? undefined : () => new Date(start + recordIndex++ * 1000).toISOString();
    for (const tableDefinition of definition.tables) {
      const table = schema.createTable(this.seeding, base, tableDefinition, { actor: DEFAULT_ACTOR, allowComputed: true });
      createRecords(this.seeding, base, table, tableDefinition.records ?? [], {
        actor: DEFAULT_ACTOR,
        allowComputed: true,
        createdTime,
      });
    }
    this.bases.set(base.id, base);
    this.onSeeded();
    return base;
  }

  /** A deterministic base of `tables` × `recordsPerTable` records (fields Name, Amount, Files, and more if asked). */
  seedLargeBase(options: LargeBaseOptions): SandboxBase {
    const random = createRandom(hashSeed(this.seed, 'large', options.name, this.largeBases++));
    const base = buildLargeBase(createIdGenerator(random), random, options);
    this.bases.set(base.id, base);
    this.onSeeded();
    return base;
  }

  summarizeBase(baseId: string): BaseSummary {
    return summarizeBase(this.requireBase(baseId));
  }

  createTable(baseId: string, config: TableConfig, actor: ChangeActor = DEFAULT_ACTOR): SandboxTable {
    return schema.createTable(this.context, this.requireBase(baseId), config, { actor });
  }

  updateTable(baseId: string, tableIdOrName: string, update: schema.SchemaUpdate, actor = DEFAULT_ACTOR): SandboxTable {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    return schema.updateTable(this.context, base, table, update, actor);
  }

  deleteTable(baseId: string, tableIdOrName: string, actor = DEFAULT_ACTOR): SandboxTable {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    schema.deleteTable(this.context, base, table, actor);
    return table;
  }

  createField(baseId: string, tableIdOrName: string, config: FieldConfig, actor = DEFAULT_ACTOR): SandboxField {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    return schema.createField(this.context, base, table, config, actor);
  }

  updateField(baseId: string, tableIdOrName: string, fieldId: string, update: schema.SchemaUpdate, actor = DEFAULT_ACTOR): SandboxField {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    return schema.updateField(this.context, base, table, this.requireField(table, fieldId), update, actor);
  }

  deleteField(baseId: string, tableIdOrName: string, fieldId: string, actor = DEFAULT_ACTOR): SandboxField {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    const field = this.requireField(table, fieldId);
    schema.deleteField(this.context, base, table, field, actor);
    return field;
  }

  createRecords(
    baseId: string,
    tableIdOrName: string,
    fieldsByRecord: Array<Record<string, unknown>>,
    options: RecordWriteOptions = {},
  ): SandboxRecord[] {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    return createRecords(this.context, base, table, fieldsByRecord, { ...options, actor: options.actor ?? DEFAULT_ACTOR });
  }

  updateRecords(baseId: string, tableIdOrName: string, updates: RecordUpdateInput[], options: RecordUpdateOptions = {}): SandboxRecord[] {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    return updateRecords(this.context, base, table, updates, { ...options, actor: options.actor ?? DEFAULT_ACTOR });
  }

  deleteRecords(baseId: string, tableIdOrName: string, recordIds: string[], actor = DEFAULT_ACTOR): string[] {
    const { base, table } = this.requireTable(baseId, tableIdOrName);
    return deleteRecords(this.context, base, table, recordIds, actor);
  }
}
