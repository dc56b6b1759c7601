export interface DayTables {
  tables: Array<{ tableId: string; tableName: string; recordCount: number; storageBytes: number }>;
}

export type Metric = 'recordCount' | 'storageBytes';

/**
 * Each table's running sum per day, bottom table first (series i is tables 0..i together; a table missing on a day
 * counts 0), and the tables in that order: what a stacked area chart draws.
 */
export function stackPerTable(days: DayTables[], metric: Metric): { tables: Array<[id: string, name: string]>; stacked: number[][] } {
  const tables = [...new Map(days.flatMap((day) => day.tables.map((t) => [t.tableId, t.tableName] as const))).entries()];
  const stacked: number[][] = [];
  tables.forEach(([tableId], i) => {
    stacked.push(days.map((day, d) => (i ? stacked[i - 1][d] : 0) + (day.tables.find((t) => t.tableId === tableId)?.[metric] ?? 0)));
  });
  return { tables, stacked };
}
