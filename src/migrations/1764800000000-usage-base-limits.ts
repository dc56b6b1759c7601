import { type MigrationInterface, type QueryRunner, Table, TableForeignKey } from 'typeorm';
import { id, text, timestamp } from './columns.js';

/** A tracked base's limits and alert thresholds (CONTRACT §10), gone with the base. */
export class UsageBaseLimits1764800000000 implements MigrationInterface {
  name = 'UsageBaseLimits1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'usage_base_limits',
        columns: [
          id('usage_base_id', true),
          text('plan', 20, true),
          { name: 'record_limit', type: 'bigint', isNullable: true },
          { name: 'storage_limit_bytes', type: 'bigint', isNullable: true },
          text('thresholds', 100),
          timestamp('updated_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['usage_base_id'],
            referencedTableName: 'usage_base',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('usage_base_limits');
  }
}
