/**
 * What an upstream request does, named from its method and path (below `/v0`, as the transport sends it). The ids in
 * a path never reach a label; a path this does not know is `other`.
 */
export function upstreamOperationOf(method: string, path: string): string {
  const s = path.split('/').slice(1);
  if (s[0] === 'meta') return metaOperation(method, s);
  if (s[0] === 'bases' && s[2] === 'webhooks') return webhookOperation(method, s);
  if (s.length === 2) return RECORD_WRITES[method] ?? (method === 'GET' ? 'list_records' : 'other');
  if (s.length === 3 && s[2] === 'listRecords' && method === 'POST') return 'list_records';
  return 'other';
}

const RECORD_WRITES: Record<string, string> = { POST: 'create_records', PATCH: 'update_records', DELETE: 'delete_records' };

/** /meta/whoami, /meta/bases, /meta/bases/{base}/tables, /meta/bases/{base}/tables/{table}/fields */
function metaOperation(method: string, s: string[]): string {
  if (s[1] === 'whoami' && s.length === 2) return 'whoami';
  if (s[1] !== 'bases') return 'other';
  if (s.length === 2) return 'list_bases';
  if (s.length === 4 && s[3] === 'tables') return method === 'POST' ? 'create_table' : 'get_schema';
  if (s.length === 6 && s[5] === 'fields' && method === 'POST') return 'create_field';
  return 'other';
}

/** /bases/{base}/webhooks[/{webhook}[/refresh | /enableNotifications | /payloads]] */
function webhookOperation(method: string, s: string[]): string {
  if (s.length === 3) return method === 'POST' ? 'create_webhook' : 'list_webhooks';
  if (s.length === 4 && method === 'DELETE') return 'delete_webhook';
  if (s.length === 5) return WEBHOOK_ACTIONS[s[4]!] ?? 'other';
  return 'other';
}

const WEBHOOK_ACTIONS: Record<string, string> = {
  refresh: 'refresh_webhook',
  enableNotifications: 'set_webhook_notifications',
  payloads: 'list_webhook_payloads',
};
