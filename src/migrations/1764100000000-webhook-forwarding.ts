import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

const integer = (name: string, isNullable = false) => ({ name, type: 'integer', isNullable });
const boolean = (name: string) => ({ name, type: 'boolean', isNullable: false });
const increment = (name: string) => ({
  name,
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment' as const,
});
const cascadeTo = (table: string, column: string, referenced = 'id') =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: [referenced], onDelete: 'CASCADE' });
const PENDING = `"status" = 'pending'`;

/** Forwarding webhooks, their deliveries (the outbox of signed POSTs) and each delivery's attempts. */
export class WebhookForwarding1764100000000 implements MigrationInterface {
  name = 'WebhookForwarding1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhook',
        columns: [
          id('id', true),
          id('account_id'),
          text('base_id', 32),
          text('event', 16),
          text('table_id', 32),
          text('column_id', 32, true),
          text('webhook_url', 2048),
          boolean('coalesce_updates'),
          text('secret', 200),
          text('previous_secret', 200, true),
          timestamp('previous_secret_expires_at', true),
          boolean('active'),
          timestamp('deactivated_at', true),
          text('deactivation_reason', 16, true),
          timestamp('failing_since', true),
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'ix_webhook_account', columnNames: ['account_id', 'active', 'base_id'] }),
          new TableIndex({ name: 'ix_webhook_base', columnNames: ['base_id', 'account_id', 'active'] }),
        ],
        foreignKeys: [cascadeTo('account', 'account_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_delivery',
        columns: [
          increment('seq'),
          id('id'),
          id('webhook_id'),
          text('record_key', 32),
          text('event_type', 16),
          { name: 'body', type: 'text', isNullable: false },
          integer('change_count'),
          text('status', 10),
          integer('attempts'),
          integer('retry_step'),
          timestamp('next_attempt_at'),
          timestamp('coalesce_until', true),
          text('lease_token', 36, true),
          timestamp('lease_until', true),
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'uq_webhook_delivery_id', columnNames: ['id'], isUnique: true }),
          // The delivery log, newest first.
          new TableIndex({ name: 'ix_webhook_delivery_log', columnNames: ['webhook_id', 'seq'] }),
          // Only pending rows are ever looked for by time or by record line: small partial indexes.
          new TableIndex({ name: 'ix_webhook_delivery_due', columnNames: ['next_attempt_at', 'seq'], where: PENDING }),
          new TableIndex({ name: 'ix_webhook_delivery_line', columnNames: ['webhook_id', 'record_key', 'seq'], where: PENDING }),
          // Pruning of finished deliveries by age.
          new TableIndex({ name: 'ix_webhook_delivery_updated', columnNames: ['updated_at'] }),
        ],
        foreignKeys: [cascadeTo('webhook', 'webhook_id')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_delivery_attempt',
        columns: [
          increment('id'),
          integer('delivery_seq'),
          timestamp('attempted_at'),
          integer('status_code', true),
          integer('duration_ms'),
          text('error', 500, true),
        ],
        indices: [new TableIndex({ name: 'ix_webhook_delivery_attempt_delivery', columnNames: ['delivery_seq', 'id'] })],
        foreignKeys: [cascadeTo('webhook_delivery', 'delivery_seq', 'seq')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['webhook_delivery_attempt', 'webhook_delivery', 'webhook']) await queryRunner.dropTable(table);
  }
}
