import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

/**
 * Usage insight (CONTRACT §10): threshold alerts, each base's thresholds currently exceeded, what a count spent
 * upstream, and the setting that skips counts on days without changes.
 */
export class UsageInsight1764900000000 implements MigrationInterface {
  name = 'UsageInsight1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'usage_alert',
        columns: [
          { name: 'seq', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          id('id'),
          id('account_id'),
          id('usage_base_id'),
          text('base_id', 32),
          text('metric', 8),
          { name: 'threshold', type: 'integer' },
          { name: 'value', type: 'bigint' },
          { name: 'limit_value', type: 'bigint' },
          text('date', 10),
          timestamp('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'uq_usage_alert_id', columnNames: ['id'], isUnique: true }),
          new TableIndex({ name: 'ix_usage_alert_account', columnNames: ['account_id', 'seq'] }),
          new TableIndex({ name: 'ix_usage_alert_base', columnNames: ['account_id', 'base_id', 'seq'] }),
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
    // JSON {"records": [80, 95], "storage": []}: the thresholds the last count was at or above.
    await queryRunner.addColumn('usage_base_limits', new TableColumn({ ...text('exceeded', 200), default: `'{}'` }));
    await queryRunner.addColumn('usage_base', new TableColumn({ name: 'count_only_when_changed', type: 'boolean', default: false }));
    // Upstream requests the day's count spent; null: counted before the ledger existed. Carried: no count was needed.
    await queryRunner.addColumn('usage_snapshot', new TableColumn({ name: 'api_calls', type: 'integer', isNullable: true }));
    await queryRunner.addColumn('usage_snapshot', new TableColumn({ name: 'carried_over', type: 'boolean', default: false }));
    // When the day's count started: a change logged after it may be missing from it.
    await queryRunner.addColumn('usage_snapshot', new TableColumn(timestamp('count_started_at', true)));
    await queryRunner.addColumn('upstream_watch', new TableColumn(timestamp('continuous_since', true)));
    // When changes of the base were last left out of the config's log (its account paused, the base missing).
    await queryRunner.addColumn('monitoring_config', new TableColumn(timestamp('log_gap_at', true)));
    await queryRunner.createIndex(
      'usage_alert',
      new TableIndex({ name: 'ix_usage_alert_usage_base', columnNames: ['usage_base_id', 'seq'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('usage_alert', 'ix_usage_alert_usage_base');
    await queryRunner.dropColumn('monitoring_config', 'log_gap_at');
    await queryRunner.dropColumn('upstream_watch', 'continuous_since');
    await queryRunner.dropColumn('usage_snapshot', 'count_started_at');
    await queryRunner.dropColumn('usage_snapshot', 'carried_over');
    await queryRunner.dropColumn('usage_snapshot', 'api_calls');
    await queryRunner.dropColumn('usage_base', 'count_only_when_changed');
    await queryRunner.dropColumn('usage_base_limits', 'exceeded');
    await queryRunner.dropTable('usage_alert');
  }
}
