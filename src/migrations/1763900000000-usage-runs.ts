import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

/** Scheduled counts, one per base and local day. */
export class UsageRuns1763900000000 implements MigrationInterface {
  name = 'UsageRuns1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'usage_run',
        columns: [
          id('id', true),
          id('usage_base_id'),
          text('local_day', 10),
          text('status', 8),
          timestamp('started_at'),
          timestamp('finished_at', true),
          text('error', 500, true),
        ],
        indices: [new TableIndex({ name: 'uq_usage_run_base_day', columnNames: ['usage_base_id', 'local_day'], isUnique: true })],
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
    await queryRunner.dropTable('usage_run');
  }
}
