import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

const integer = (name: string) => ({ name, type: 'integer' });
const longText = (name: string, isNullable = false) => ({ name, type: 'text', isNullable });
const serial = (name: string) => ({ name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const });
const key = (name: string, length = 32) => ({ ...text(name, length), isPrimary: true });

/** The mirror of watched bases (CONTRACT §11): bases, records, versions, a seed's staging rows, restores; days counted from it. */
export class Mirror1765400000000 implements MigrationInterface {
  name = 'Mirror1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'mirror_base',
        columns: [
          id('id', true),
          text('base_id', 32),
          text('status', 8),
          text('gap_reason', 255, true),
          text('webhook_id', 32, true),
          integer('generation'),
          longText('schema_json'),
          timestamp('seeded_at', true),
          timestamp('continuous_since', true),
          timestamp('full_count_at', true),
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        indices: [new TableIndex({ name: 'uq_mirror_base_base', columnNames: ['base_id'], isUnique: true })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mirror_record',
        columns: [
          key('base_id'),
          key('record_id'),
          text('table_id', 32),
          timestamp('created_time'),
          timestamp('deleted_at', true),
          text('deleted_by', 255, true),
          longText('fields_json'),
          integer('versions'),
          integer('file_count'),
          { name: 'attachment_bytes', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'ix_mirror_record_deleted', columnNames: ['base_id', 'table_id', 'deleted_at'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mirror_version',
        columns: [
          serial('seq'),
          text('base_id', 32),
          text('record_id', 32),
          timestamp('at'),
          text('event_type', 16),
          text('source', 24),
          text('user_email', 255, true),
          integer('keyframe'),
          longText('fields_json'),
        ],
        indices: [
          new TableIndex({ name: 'ix_mirror_version_record', columnNames: ['base_id', 'record_id', 'seq'] }),
          new TableIndex({ name: 'ix_mirror_version_at', columnNames: ['base_id', 'at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mirror_seed_record',
        columns: [key('base_id'), key('record_id'), text('table_id', 32), timestamp('created_time'), longText('fields_json')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mirror_pending',
        columns: [serial('seq'), text('base_id', 32), longText('change_json')],
        indices: [new TableIndex({ name: 'ix_mirror_pending_base', columnNames: ['base_id', 'seq'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mirror_restore',
        columns: [
          id('id', true),
          id('config_id'),
          id('account_id'),
          text('base_id', 32),
          text('table_id', 32),
          timestamp('at'),
          text('status', 8),
          longText('plan_json'),
          integer('done'),
          integer('total'),
          integer('create_count'),
          integer('update_count'),
          longText('skipped_field_ids'),
          longText('created_record_ids'),
          longText('in_flight_json', true),
          text('error', 500, true),
          timestamp('created_at'),
          timestamp('finished_at', true),
        ],
        indices: [new TableIndex({ name: 'ix_mirror_restore_config', columnNames: ['config_id', 'created_at'] })],
      }),
    );
    await queryRunner.addColumn('usage_snapshot', new TableColumn({ name: 'from_mirror', type: 'boolean', default: false }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('usage_snapshot', 'from_mirror');
    for (const table of ['mirror_restore', 'mirror_pending', 'mirror_seed_record', 'mirror_version', 'mirror_record', 'mirror_base']) {
      await queryRunner.dropTable(table);
    }
  }
}
