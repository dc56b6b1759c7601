import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { id, text, timestamp } from './columns.js';

/**
 * Agenda's jobs and job log for the SQLite job backend (src/jobs/backends/sqlite). Instants are ISO 8601 UTC text
 * like the rest of the schema; `data`, `repeat_interval`, `skip_days`, `unique_query` and `unique_opts` hold JSON.
 */
export class AgendaJobs1763800000000 implements MigrationInterface {
  name = 'AgendaJobs1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'agenda_job',
        columns: [
          id('id', true),
          text('name', 255),
          { name: 'priority', type: 'integer', default: 0 },
          text('type', 16),
          { name: 'data', type: 'text' },
          timestamp('next_run_at', true),
          timestamp('locked_at', true),
          timestamp('last_run_at', true),
          timestamp('last_finished_at', true),
          timestamp('failed_at', true),
          { name: 'fail_count', type: 'integer', isNullable: true },
          { name: 'fail_reason', type: 'text', isNullable: true },
          text('repeat_interval', 255, true),
          text('repeat_timezone', 64, true),
          text('repeat_at', 255, true),
          timestamp('start_date', true),
          timestamp('end_date', true),
          text('skip_days', 64, true),
          { name: 'disabled', type: 'boolean', default: false },
          { name: 'progress', type: 'real', isNullable: true },
          { name: 'fork', type: 'boolean', isNullable: true },
          { name: 'unique_query', type: 'text', isNullable: true },
          { name: 'unique_opts', type: 'text', isNullable: true },
          timestamp('debounce_started_at', true),
          text('last_modified_by', 255, true),
        ],
      }),
    );
    // Serves the next-due scan in its own order (next_run_at, then priority descending), so finding the next job
    // reads the first matching index entry instead of sorting every due job; and every lookup by name.
    await queryRunner.query('CREATE INDEX idx_agenda_job_next ON agenda_job (name, next_run_at, priority DESC)');
    // The per-base jobs are made unique on `data.usageBaseId`; TypeORM's schema API has no expression indexes.
    const expression =
      queryRunner.connection.options.type === 'postgres' ? `((data::jsonb ->> 'usageBaseId'))` : `json_extract(data, '$.usageBaseId')`;
    await queryRunner.query(`CREATE INDEX idx_agenda_job_usage_base ON agenda_job (name, ${expression})`);

    await queryRunner.createTable(
      new Table({
        name: 'agenda_job_log',
        columns: [
          id('id', true),
          timestamp('timestamp'),
          text('level', 8),
          text('event', 32),
          text('job_id', 64, true),
          text('job_name', 255),
          { name: 'message', type: 'text' },
          { name: 'duration', type: 'integer', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'fail_count', type: 'integer', isNullable: true },
          { name: 'retry_delay', type: 'integer', isNullable: true },
          { name: 'retry_attempt', type: 'integer', isNullable: true },
          text('agenda_name', 255, true),
          { name: 'meta', type: 'text', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'idx_agenda_job_log_timestamp', columnNames: ['timestamp'] }),
          new TableIndex({ name: 'idx_agenda_job_log_job', columnNames: ['job_id', 'timestamp'] }),
          new TableIndex({ name: 'idx_agenda_job_log_name', columnNames: ['job_name', 'timestamp'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('agenda_job_log');
    await queryRunner.dropTable('agenda_job');
  }
}
