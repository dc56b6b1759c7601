import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

const integer = (name: string, isNullable = false) => ({ name, type: 'integer', isNullable });
const longText = (name: string, isNullable = false) => ({ name, type: 'text', isNullable });
const cascadeTo = (table: string, column: string) =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/** Filters of GET …/changes, each indexed as (config_id, <filter>, occurred_at, id) so a page walks one index. */
const FILTERED_COLUMNS = ['event_type', 'kind', 'table_id', 'record_id', 'source', 'user_email'];

/** Upstream watches, monitoring configs, the change log read model, its field index and the Changes-table outbox. */
export class AuditLog1764000000000 implements MigrationInterface {
  name = 'AuditLog1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'upstream_watch',
        columns: [
          id('id', true),
          id('account_id'),
          text('base_id', 32),
          text('webhook_id', 32),
          text('mac_secret', 200),
          integer('payload_cursor'),
          longText('table_names'),
          text('status', 8),
          timestamp('expires_at', true),
          timestamp('last_read_at', true),
          timestamp('last_ping_at', true),
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'uq_upstream_watch_account_base', columnNames: ['account_id', 'base_id'], isUnique: true }),
          new TableIndex({ name: 'uq_upstream_watch_webhook', columnNames: ['webhook_id'], isUnique: true }),
        ],
        foreignKeys: [cascadeTo('account', 'account_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'monitoring_config',
        columns: [
          id('id', true),
          id('account_id'),
          text('base_id', 32),
          text('base_name', 255),
          text('workspace_id', 32),
          text('monitoring_base_id', 32),
          text('monitoring_base_name', 255),
          text('monitoring_table_id', 32),
          text('monitoring_table_name', 255),
          text('scope', 16),
          text('timezone', 64),
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        indices: [
          new TableIndex({
            name: 'uq_monitoring_config_target',
            columnNames: ['account_id', 'base_id', 'monitoring_table_id'],
            isUnique: true,
          }),
          new TableIndex({ name: 'ix_monitoring_config_base', columnNames: ['account_id', 'base_id'] }),
        ],
        foreignKeys: [cascadeTo('account', 'account_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'change_entry',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          id('config_id'),
          timestamp('occurred_at'),
          text('event_type', 16),
          text('kind', 8),
          text('table_id', 32),
          text('table_name', 255),
          text('record_id', 32, true),
          longText('field_ids'),
          text('source', 24),
          text('user_email', 255, true),
          text('user_name', 255, true),
          longText('before_json', true),
          longText('after_json', true),
          text('monitoring_record_id', 32, true),
          text('position', 80),
          timestamp('logged_at'),
        ],
        indices: [
          new TableIndex({ name: 'uq_change_entry_position', columnNames: ['config_id', 'position'], isUnique: true }),
          new TableIndex({ name: 'ix_change_entry_time', columnNames: ['config_id', 'occurred_at', 'id'] }),
          ...FILTERED_COLUMNS.map(
            (column) => new TableIndex({ name: `ix_change_entry_${column}`, columnNames: ['config_id', column, 'occurred_at', 'id'] }),
          ),
          // Retention deletes by age across all configs.
          new TableIndex({ name: 'ix_change_entry_occurred', columnNames: ['occurred_at'] }),
        ],
        foreignKeys: [cascadeTo('monitoring_config', 'config_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'change_entry_field',
        columns: [
          { ...integer('entry_id'), isPrimary: true },
          { ...text('field_id', 32), isPrimary: true },
          id('config_id'),
          timestamp('occurred_at'),
        ],
        indices: [
          new TableIndex({
            name: 'ix_change_entry_field_lookup',
            columnNames: ['config_id', 'field_id', 'occurred_at', 'entry_id'],
          }),
        ],
        foreignKeys: [cascadeTo('change_entry', 'entry_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'change_outbox',
        columns: [
          { ...integer('entry_id'), isPrimary: true },
          id('config_id'),
          text('batch_token', 36, true),
          integer('attempts'),
          timestamp('next_attempt_at'),
          text('last_error', 500, true),
        ],
        indices: [new TableIndex({ name: 'ix_change_outbox_config', columnNames: ['config_id', 'next_attempt_at', 'entry_id'] })],
        foreignKeys: [cascadeTo('change_entry', 'entry_id')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['change_outbox', 'change_entry_field', 'change_entry', 'monitoring_config', 'upstream_watch']) {
      await queryRunner.dropTable(table);
    }
  }
}
