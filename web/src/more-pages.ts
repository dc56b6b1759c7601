// The signed-in pages other than Usage and a base's: one chunk, loaded on the first visit to one of them (one request,
// where a chunk per page would make several small ones, each waiting its turn on the connection).
export { AuditChangesPage } from './pages/audit-changes.js';
export { AuditConfigsPage } from './pages/audit-configs.js';
export { DeletedRecordsPage } from './pages/deleted-records.js';
export { NotFoundPage } from './pages/not-found.js';
export { RecordHistoryPage } from './pages/record-history.js';
export { SettingsPage } from './pages/settings.js';
export { WebhooksPage } from './pages/webhooks.js';
