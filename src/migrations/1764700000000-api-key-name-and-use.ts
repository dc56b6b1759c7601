import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { text, timestamp } from './columns.js';

/**
 * api_key.name and last_used_at: keys made in the web application's settings carry a name, and the list there shows
 * when each key was last used (written at most once a minute per key, see AccountService).
 */
export class ApiKeyNameAndUse1764700000000 implements MigrationInterface {
  name = 'ApiKeyNameAndUse1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('api_key', [new TableColumn(text('name', 100, true)), new TableColumn(timestamp('last_used_at', true))]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('api_key', ['name', 'last_used_at']);
  }
}
