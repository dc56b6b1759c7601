import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { text, timestamp } from './columns.js';

/** Which key sealed the database's secrets: a fingerprint of it (key-fingerprint.ts), never the key. */
export class DeploymentKey1765123000000 implements MigrationInterface {
  name = 'DeploymentKey1765123000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'deployment_key',
        columns: [{ ...text('name', 32), isPrimary: true }, text('fingerprint', 64), timestamp('recorded_at')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('deployment_key');
  }
}
