import type { HistoryPage, MirrorState } from '../services/mirror/mirror-read.service.js';
import type { RestoreView } from '../services/mirror/mirror-restore.service.js';
import { JsonBody } from './http/json-body.js';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function toMirrorResponse(state: MirrorState) {
  // REST's tables keep the contract's three keys; field names are a GraphQL extension for the web application.
  const tables = state.tables.map(({ tableId, tableName, recordCount }) => ({ tableId, tableName, recordCount }));
  return { status: state.status, seededAt: iso(state.seededAt), continuousSince: iso(state.continuousSince), tables };
}

export function toRestoreResponse(restore: RestoreView) {
  return { ...restore, at: restore.at.toISOString(), createdAt: restore.createdAt.toISOString(), finishedAt: iso(restore.finishedAt) };
}

/**
 * A page of a record's history, written by hand around each version's record, which the service gives as JSON text:
 * the 50 whole records of a page are not parsed and written again.
 */
export function toHistoryBody(page: HistoryPage): JsonBody {
  const text = JSON.stringify;
  const versions = page.versions.map(
    (version) =>
      `{"at":${text(version.at)},"eventType":${text(version.eventType)},"source":${text(version.source)},` +
      `"userEmail":${text(version.userEmail)},"fields":${version.fieldsJson}}`,
  );
  const next = page.nextCursor ? `,"nextCursor":${text(page.nextCursor)}` : '';
  return new JsonBody(`{"recordId":${text(page.recordId)},"tableId":${text(page.tableId)},"versions":[${versions.join(',')}]${next}}`);
}
