import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/**
 * monitoring_config.changes_version: bumped in the same transaction as every write to the config's change entries
 * (new entries, stored monitoringRecordIds, pruning), so a rendered page of its change log can be kept under it.
 */
export class ChangeLogVersion1764200000000 implements MigrationInterface {
  name = 'ChangeLogVersion1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'monitoring_config',
      new TableColumn({ name: 'changes_version', type: 'integer', isNullable: false, default: 0 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('monitoring_config', 'changes_version');
  }
}
