import type { TableColumnOptions } from 'typeorm';

export const id = (name: string, primary = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '36',
  isPrimary: primary,
});
export const text = (name: string, length: number, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});
export const timestamp = (name: string, nullable = false): TableColumnOptions => text(name, 24, nullable);
