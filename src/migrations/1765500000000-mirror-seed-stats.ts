import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/**
 * A seed's staging rows carry each record's files and attachment bytes, counted as its page arrives (while the
 * listing waits for the base's budget), so that completing the seed copies rows in SQL instead of reading every
 * record back to count them.
 */
export class MirrorSeedStats1765500000000 implements MigrationInterface {
  name = 'MirrorSeedStats1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A seed under way when the service stopped starts again from its first page: its staging rows go.
    await queryRunner.query('DELETE FROM mirror_seed_record');
    await queryRunner.addColumns('mirror_seed_record', [
      new TableColumn({ name: 'file_count', type: 'integer', default: 0 }),
      new TableColumn({ name: 'attachment_bytes', type: 'bigint', default: 0 }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('mirror_seed_record', 'attachment_bytes');
    await queryRunner.dropColumn('mirror_seed_record', 'file_count');
  }
}
