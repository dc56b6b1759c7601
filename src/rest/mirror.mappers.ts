import type { MirrorState } from '../services/mirror/mirror-read.service.js';
import type { RestoreView } from '../services/mirror/mirror-restore.service.js';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function toMirrorResponse(state: MirrorState) {
  // REST's tables keep the contract's three keys; field names are a GraphQL extension for the web application.
  const tables = state.tables.map(({ tableId, tableName, recordCount }) => ({ tableId, tableName, recordCount }));
  return { status: state.status, seededAt: iso(state.seededAt), continuousSince: iso(state.continuousSince), tables };
}

export function toRestoreResponse(restore: RestoreView) {
  return { ...restore, at: restore.at.toISOString(), createdAt: restore.createdAt.toISOString(), finishedAt: iso(restore.finishedAt) };
}
