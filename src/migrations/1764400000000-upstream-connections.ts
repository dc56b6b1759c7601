import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

const cascadeToAccount = () =>
  new TableForeignKey({ columnNames: ['account_id'], referencedTableName: 'account', referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/** Each account's own upstream connection (OAuth grant or personal access token), and pending OAuth states. */
export class UpstreamConnections1764400000000 implements MigrationInterface {
  name = 'UpstreamConnections1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'upstream_connection',
        columns: [
          id('account_id', true),
          text('kind', 8),
          text('upstream_user_id', 32),
          text('email', 320, true),
          { name: 'scopes', type: 'text', isNullable: true },
          text('status', 16),
          { name: 'access_token', type: 'text', isNullable: false },
          { name: 'refresh_token', type: 'text', isNullable: true },
          timestamp('access_expires_at', true),
          timestamp('refresh_expires_at', true),
          { name: 'token_version', type: 'integer', isNullable: false },
          timestamp('refreshing_until', true),
          text('last_error', 1000, true),
          timestamp('connected_at'),
          timestamp('updated_at'),
        ],
        indices: [new TableIndex({ name: 'ix_upstream_connection_user', columnNames: ['upstream_user_id'] })],
        foreignKeys: [cascadeToAccount()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'oauth_state',
        columns: [
          { ...text('state', 128), isPrimary: true },
          id('account_id'),
          { name: 'code_verifier', type: 'text', isNullable: false },
          text('redirect_uri', 2048),
          timestamp('expires_at'),
        ],
        indices: [new TableIndex({ name: 'ix_oauth_state_expires', columnNames: ['expires_at'] })],
        foreignKeys: [cascadeToAccount()],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('oauth_state');
    await queryRunner.dropTable('upstream_connection');
  }
}
