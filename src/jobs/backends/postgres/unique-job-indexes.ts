import type pg from 'pg';

export interface UniqueJob {
  name: string;
  dataKey: string;
}

/**
 * One job per name and key value, enforced by the database: a partial unique index per unique job on Agenda's
 * table. @agendajs/postgres-backend 3.0.6 saves a unique job as a SELECT then an INSERT, so two processes saving it
 * at once both insert (STACK.md trap 16); with the index the second insert fails, and the save is made again
 * (postgres-job-backend.ts). Duplicates left by earlier versions are removed first, keeping a locked job (it may be
 * running) or else the oldest.
 */
export async function ensureUniqueJobIndexes(client: pg.PoolClient, table: string, jobs: readonly UniqueJob[]): Promise<void> {
  for (const { name, dataKey } of jobs) {
    // Index predicates cannot take parameters: the names are our own constants, checked all the same.
    for (const part of [table, name, dataKey]) {
      if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(part)) throw new Error(`not a plain name: ${part}`);
    }
    const key = `(data->>'${dataKey}')`;
    await client.query(
      `DELETE FROM "${table}" WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY ${key} ORDER BY locked_at IS NULL, created_at, id) AS nth
           FROM "${table}" WHERE name = $1 AND ${key} IS NOT NULL
         ) ranked WHERE nth > 1)`,
      [name],
    );
    const index = `${table}_unique_${name.replace(/\./g, '_')}`;
    await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS "${index}" ON "${table}" (${key}) WHERE name = '${name}'`);
  }
}
