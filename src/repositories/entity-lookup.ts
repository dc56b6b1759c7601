import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * `findOneBy` for the lookups every request makes (a tracked base or a monitoring config by id and account), without
 * TypeORM's query builder: the SQL is written once from the entity's metadata, the driver caches the prepared
 * statement, and rows are hydrated by the same column metadata and transformers TypeORM uses. The builder was most of
 * the CPU of a cached snapshot page (bench/snapshot-history.bench.ts).
 */
export class EntityLookup<T extends ObjectLiteral, Omitted extends keyof T & string = never> {
  private readonly sql: string;
  private readonly metadata: EntityMetadata;
  private readonly columns: EntityMetadata['columns'];

  /** `omit`: properties not read (a large column that this lookup's callers do not need). */
  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
    where: readonly (keyof T & string)[],
    omit: readonly Omitted[] = [],
  ) {
    const metadata = dataSource.getMetadata(entity);
    this.metadata = metadata;
    this.columns = metadata.columns.filter((column) => !(omit as readonly string[]).includes(column.propertyName));
    const { driver } = dataSource;
    const select = this.columns.map((column) => driver.escape(column.databaseName)).join(', ');
    const conditions = where.map((property, index) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return `${driver.escape(column.databaseName)} = ${driver.createParameter(`p${index}`, index)}`;
    });
    this.sql = `SELECT ${select} FROM ${driver.escape(metadata.tableName)} WHERE ${conditions.join(' AND ')} LIMIT 1`;
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
