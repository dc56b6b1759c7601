import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

/** Accounts, API keys, tracked usage bases and their daily snapshots. Written with TypeORM's schema API so the
 * same migration runs on SQLite and PostgreSQL. */
export class Initial1763712000000 implements MigrationInterface {
  name = 'Initial1763712000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(new Table({ name: 'account', columns: [id('id', true), text('name', 255), timestamp('created_at')] }));
    await queryRunner.createTable(
      new Table({
        name: 'api_key',
        columns: [
          id('id', true),
          id('account_id'),
          text('key_hash', 64),
          text('key_prefix', 16),
          timestamp('created_at'),
          timestamp('revoked_at', true),
        ],
        indices: [
          new TableIndex({ name: 'uq_api_key_hash', columnNames: ['key_hash'], isUnique: true }),
          new TableIndex({ name: 'idx_api_key_account', columnNames: ['account_id'] }),
        ],
        foreignKeys: [cascadeTo('account', 'account_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'usage_base',
        columns: [
          id('id', true),
          id('account_id'),
          text('base_id', 32),
          text('base_name', 255),
          { name: 'scheduled_hour', type: 'integer' },
          text('timezone', 64),
          timestamp('created_at'),
          timestamp('updated_at'),
          { name: 'count_lock_token', type: 'varchar', length: '36', isNullable: true },
          timestamp('count_lock_until', true),
          { name: 'snapshot_version', type: 'integer', default: 0 },
        ],
        indices: [new TableIndex({ name: 'uq_usage_base_account_base', columnNames: ['account_id', 'base_id'], isUnique: true })],
        foreignKeys: [cascadeTo('account', 'account_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'usage_snapshot',
        columns: [
          id('id', true),
          id('usage_base_id'),
          text('date', 10),
          { name: 'record_count', type: 'bigint' },
          { name: 'storage_bytes', type: 'bigint' },
          { name: 'file_count', type: 'bigint' },
          { name: 'table_count', type: 'integer' },
          { name: 'tables_json', type: 'text' },
          timestamp('counted_at'),
        ],
        indices: [new TableIndex({ name: 'uq_usage_snapshot_base_date', columnNames: ['usage_base_id', 'date'], isUnique: true })],
        foreignKeys: [cascadeTo('usage_base', 'usage_base_id')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['usage_snapshot', 'usage_base', 'api_key', 'account']) {
      await queryRunner.dropTable(table);
    }
  }
}

function cascadeTo(table: string, column: string): TableForeignKey {
  return new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
}
