import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

const cascadeTo = (column: string, table: string) =>
  new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

/** People who sign in to the web application (one owner per account), their sessions and set-password links. */
export class UsersAndSessions1764600000000 implements MigrationInterface {
  name = 'UsersAndSessions1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'app_user',
        columns: [
          id('id', true),
          id('account_id'),
          text('email', 320),
          text('password_hash', 255, true),
          timestamp('created_at'),
          timestamp('password_changed_at', true),
        ],
        indices: [
          new TableIndex({ name: 'uq_app_user_account', columnNames: ['account_id'], isUnique: true }),
          new TableIndex({ name: 'uq_app_user_email', columnNames: ['email'], isUnique: true }),
        ],
        foreignKeys: [cascadeTo('account_id', 'account')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'user_session',
        columns: [
          id('id', true),
          id('user_id'),
          text('token_hash', 64),
          text('user_agent', 255, true),
          timestamp('created_at'),
          timestamp('last_used_at'),
          timestamp('expires_at'),
          timestamp('revoked_at', true),
        ],
        indices: [
          new TableIndex({ name: 'idx_user_session_user', columnNames: ['user_id'] }),
          new TableIndex({ name: 'uq_user_session_token_hash', columnNames: ['token_hash'], isUnique: true }),
        ],
        foreignKeys: [cascadeTo('user_id', 'app_user')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'set_password_token',
        columns: [{ ...text('token_hash', 64), isPrimary: true }, id('user_id'), timestamp('expires_at'), timestamp('used_at', true)],
        foreignKeys: [cascadeTo('user_id', 'app_user')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('set_password_token');
    await queryRunner.dropTable('user_session');
    await queryRunner.dropTable('app_user');
  }
}
