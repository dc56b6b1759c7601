import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

/**
 * Creates of a monitoring config in flight (monitoring-config-claim.entity.ts): one per account, base and monitoring
 * base. And the configs that write into a base, found by it (ingestion leaves their Changes tables' rows out).
 */
export class MonitoringConfigClaim1765250000000 implements MigrationInterface {
  name = 'MonitoringConfigClaim1765250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'monitoring_config_claim',
        columns: [
          id('account_id', true),
          { ...text('base_id', 32), isPrimary: true },
          { ...text('monitoring_base_id', 32), isPrimary: true },
          timestamp('claimed_until'),
        ],
      }),
    );
    await queryRunner.createIndex(
      'monitoring_config',
      new TableIndex({ name: 'ix_monitoring_config_monitoring_base', columnNames: ['monitoring_base_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('monitoring_config', 'ix_monitoring_config_monitoring_base');
    await queryRunner.dropTable('monitoring_config_claim');
  }
}
