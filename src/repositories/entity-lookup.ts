import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * `findOneBy` for the lookups every request makes (a tracked base or a monitoring config by id and account), without
 * TypeORM's query builder: the SQL is written once from the entity's metadata, the driver caches the prepared
 * statement, and rows are hydrated by the same column metadata and transformers TypeORM uses. The builder was most of
 * the CPU of a cached snapshot page (bench/snapshot-history.bench.ts).
 */
export class EntityLookup<T extends ObjectLiteral, Omitted extends keyof T & string = never> {
  private readonly sql: string;
  private readonly select: string;
  private readonly updates = new Map<string, string>();
  private readonly metadata: EntityMetadata;
  private readonly columns: EntityMetadata['columns'];

  /** `omit`: properties not read (a large column that this lookup's callers do not need). */
  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
    private readonly where: readonly (keyof T & string)[],
    omit: readonly Omitted[] = [],
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.metadata = metadata;
    this.columns = metadata.columns.filter((column) => !(omit as readonly string[]).includes(column.propertyName));
    const { driver } = dataSource;
    this.select = this.columns.map((column) => driver.escape(column.databaseName)).join(', ');
    this.sql = `SELECT ${this.select} FROM ${driver.escape(metadata.tableName)} WHERE ${this.conditionsFrom(0)} LIMIT 1`;
  }

  /**
   * Sets one property of the row whose `where` columns equal `values` and answers the row as it is then, in one
   * statement (UPDATE … RETURNING, on PostgreSQL and SQLite ≥ 3.35): a write lock on the row and its read at once.
   */
  async updateIn(
    manager: EntityManager,
    property: keyof T & string,
    value: unknown,
    ...values: unknown[]
  ): Promise<Omit<T, Omitted> | null> {
    const column = this.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${this.metadata.name} has no column ${property}`);
    const { driver } = this.dataSource;
    let sql = this.updates.get(property);
    if (!sql) {
      // SQLite's parameters are positional: the value is the first.
      const set = `${driver.escape(column.databaseName)} = ${driver.createParameter('value', 0)}`;
      sql = `UPDATE ${driver.escape(this.metadata.tableName)} SET ${set} WHERE ${this.conditionsFrom(1)} RETURNING ${this.select}`;
      this.updates.set(property, sql);
    }
    if (!manager.queryRunner) throw new Error('updateIn locks a row for a transaction: call it inside one');
    // The structured result carries the rows returned on both drivers.
    const result = await manager.queryRunner.query(sql, [driver.preparePersistentValue(value, column), ...values], true);
    const rows = (result.records ?? []) as Record<string, unknown>[];
    return rows.length === 0 ? null : this.hydrate(rows[0]!);
  }

  /** `where`'s conditions, their parameters numbered from `first`. */
  private conditionsFrom(first: number): string {
    const { driver } = this.dataSource;
    return this.where
      .map((property, index) => {
        const column = this.metadata.findColumnWithPropertyName(property);
        if (!column) throw new Error(`${this.metadata.name} has no column ${property}`);
        return `${driver.escape(column.databaseName)} = ${driver.createParameter(`p${index}`, first + index)}`;
      })
      .join(' AND ');
  }

  /** The row whose `where` columns equal `values`, in the same order, or null. */
  one(...values: unknown[]): Promise<Omit<T, Omitted> | null> {
    return this.oneIn(this.dataSource.manager, ...values);
  }

  /** `one` inside a transaction (its manager). */
  async oneIn(manager: EntityManager, ...values: unknown[]): Promise<Omit<T, Omitted> | null> {
    const rows = (await manager.query(this.sql, values)) as Record<string, unknown>[];
    return rows.length === 0 ? null : this.hydrate(rows[0]!);
  }

  private hydrate(row: Record<string, unknown>): Omit<T, Omitted> {
    const entity = this.metadata.create() as T;
    for (const column of this.columns) {
      column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return entity;
  }
}
