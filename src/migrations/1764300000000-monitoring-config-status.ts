import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { text, timestamp } from './columns.js';

/**
 * monitoring_config.status, last_error, status_checked_at: whether the monitored base and the Changes table are
 * still there upstream, as the Changes-table writer and the upkeep last found them.
 */
export class MonitoringConfigStatus1764300000000 implements MigrationInterface {
  name = 'MonitoringConfigStatus1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('monitoring_config', [
      new TableColumn({ ...text('status', 32), default: "'ok'" }),
      new TableColumn(text('last_error', 1000, true)),
      new TableColumn(timestamp('status_checked_at', true)),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('monitoring_config', ['status', 'last_error', 'status_checked_at']);
  }
}
