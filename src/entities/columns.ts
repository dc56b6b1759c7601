import type { ColumnOptions, ValueTransformer } from 'typeorm';

/**
 * Instants are stored as fixed-width ISO 8601 UTC strings: they sort correctly as text, compare the same on
 * SQLite and PostgreSQL, and never pass through a driver's time-zone conversion.
 */
const isoTimestamp: ValueTransformer = {
  to: (value: Date | null | undefined) => (value instanceof Date ? value.toISOString() : value),
  from: (value: string | null) => (value === null || value === undefined ? value : new Date(value)),
};

/** 64-bit counters: PostgreSQL's driver returns bigint as a string; counts stay far below 2^53. */
const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};

export const idColumn = (name = 'id') => ({ name, type: 'varchar', length: 36 }) as const;
export const timestampColumn = (name: string, nullable = false): ColumnOptions => ({
  name,
  type: 'varchar',
  length: 24,
  nullable,
  transformer: isoTimestamp,
});
export const bigintColumn = (name: string, nullable = false): ColumnOptions => ({
  name,
  type: 'bigint',
  nullable,
  transformer: bigintNumber,
});
