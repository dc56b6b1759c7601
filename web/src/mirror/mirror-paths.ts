/**
 * The mirror's pages live under the change browser of the config they read through (`/audit-log/{configId}`):
 * a record's history and a table's recently deleted records.
 */
const configPath = (configId: string) => `/audit-log/${encodeURIComponent(configId)}`;

export const historyPath = (configId: string, recordId: string) => `${configPath(configId)}/records/${encodeURIComponent(recordId)}`;

export const deletedPath = (configId: string, tableId?: string) =>
  `${configPath(configId)}/deleted${tableId ? `?table=${encodeURIComponent(tableId)}` : ''}`;

export type MirrorRoute = { page: 'history'; configId: string; recordId: string } | { page: 'deleted'; configId: string };

/** The mirror page a path names, if any (the config id is one encoded segment, so it holds no `/`). */
export function mirrorRoute(path: string): MirrorRoute | undefined {
  const history = /^\/audit-log\/([^/]+)\/records\/([^/]+)$/.exec(path);
  if (history) return { page: 'history', configId: decodeURIComponent(history[1]!), recordId: decodeURIComponent(history[2]!) };
  const deleted = /^\/audit-log\/([^/]+)\/deleted$/.exec(path);
  if (deleted) return { page: 'deleted', configId: decodeURIComponent(deleted[1]!) };
  return undefined;
}
