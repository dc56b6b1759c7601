export interface ReportTable {
  title: string;
  headers: string[];
  rows: string[][];
  notes?: string[];
}

export function renderTable(table: ReportTable): string {
  const lines = [`### ${table.title}`, '', row(table.headers), row(table.headers.map(() => '---')), ...table.rows.map(row)];
  for (const note of table.notes ?? []) lines.push('', note);
  return lines.join('\n');
}

const row = (cells: string[]) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;

export const verdict = (ok: boolean) => (ok ? 'pass' : 'fail');

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

export const seconds = (valueMs: number) => `${(valueMs / 1000).toFixed(1)} s`;

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export const count = (value: number) => value.toLocaleString('en-US');
