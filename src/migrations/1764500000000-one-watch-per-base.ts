import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/**
 * One upstream watch per base, shared by every account that watches it (the platform allows 10 webhooks per base
 * and 2 per OAuth integration): duplicates of a base keep the oldest watch, whose holder reads it for everyone.
 * The webhooks of the dropped rows are no longer refreshed and expire upstream within 7 days.
 */
export class OneWatchPerBase1764500000000 implements MigrationInterface {
  name = 'OneWatchPerBase1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM upstream_watch WHERE EXISTS (
         SELECT 1 FROM upstream_watch older
         WHERE older.base_id = upstream_watch.base_id
           AND (older.created_at < upstream_watch.created_at OR (older.created_at = upstream_watch.created_at AND older.id < upstream_watch.id)))`,
    );
    await queryRunner.dropIndex('upstream_watch', 'uq_upstream_watch_account_base');
    await queryRunner.createIndex(
      'upstream_watch',
      new TableIndex({ name: 'uq_upstream_watch_base', columnNames: ['base_id'], isUnique: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('upstream_watch', 'uq_upstream_watch_base');
    await queryRunner.createIndex(
      'upstream_watch',
      new TableIndex({ name: 'uq_upstream_watch_account_base', columnNames: ['account_id', 'base_id'], isUnique: true }),
    );
  }
}
