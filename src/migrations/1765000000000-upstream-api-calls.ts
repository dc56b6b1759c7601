import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { text } from './columns.js';

/** The API-call ledger (CONTRACT §10): requests per UTC month, upstream user, base and purpose. */
export class UpstreamApiCalls1765000000000 implements MigrationInterface {
  name = 'UpstreamApiCalls1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'upstream_api_call',
        columns: [
          { ...text('month', 7), isPrimary: true },
          { ...text('user_key', 40), isPrimary: true },
          { ...text('base_id', 32), isPrimary: true },
          { ...text('purpose', 10), isPrimary: true },
          { name: 'calls', type: 'bigint' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('upstream_api_call');
  }
}
