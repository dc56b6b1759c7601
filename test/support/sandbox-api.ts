import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';

/** Who a change made through the sandbox looks like it came from (CONTRACT §5 X-Sandbox-* headers). */
export interface Actor {
  source?: string;
  email?: string;
  name?: string;
}

/**
 * The sandbox's own API, called as an outside user would (bypassing basewatch), to make upstream changes: the one a
 * service serves at /sandbox/airtable, or a standalone sandbox at `sandboxUrl` (`npm run sandbox`).
 */
export function sandboxApi(serviceUrl: string, token = DEFAULT_SANDBOX_TOKEN, sandboxUrl = `${serviceUrl}/sandbox/airtable`) {
  const root = `${sandboxUrl}/v0`;
  async function call(method: string, path: string, body?: unknown, actor: Actor = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (actor.source) headers['x-sandbox-source'] = actor.source;
    if (actor.email) headers['x-sandbox-user-email'] = actor.email;
    if (actor.name) headers['x-sandbox-user-name'] = actor.name;
    const res = await fetch(`${root}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new Error(`sandbox ${method} ${path} → ${res.status} ${text}`);
    return json;
  }
  const tables = (baseId: string) => `/meta/bases/${baseId}/tables`;
  return {
    call,
    schema: async (baseId: string) =>
      (await call('GET', tables(baseId))).tables as Array<{
        id: string;
        name: string;
        primaryFieldId: string;
        fields: Array<{ id: string; name: string; type: string }>;
      }>,
    createRecords: (baseId: string, tableId: string, fields: Array<Record<string, unknown>>, actor?: Actor) =>
      call('POST', `/${baseId}/${tableId}`, { records: fields.map((f) => ({ fields: f })) }, actor),
    updateRecords: (baseId: string, tableId: string, records: Array<{ id: string; fields: Record<string, unknown> }>, actor?: Actor) =>
      call('PATCH', `/${baseId}/${tableId}`, { records }, actor),
    deleteRecords: (baseId: string, tableId: string, ids: string[], actor?: Actor) =>
      call('DELETE', `/${baseId}/${tableId}?${ids.map((id) => `records[]=${id}`).join('&')}`, undefined, actor),
    listRecords: (baseId: string, tableId: string, query = '') => call('GET', `/${baseId}/${tableId}${query}`),
    createTable: (baseId: string, table: { name: string; fields: Array<Record<string, unknown>> }, actor?: Actor) =>
      call('POST', tables(baseId), table, actor),
    updateTable: (baseId: string, tableId: string, patch: { name?: string; description?: string }, actor?: Actor) =>
      call('PATCH', `${tables(baseId)}/${tableId}`, patch, actor),
    deleteTable: (baseId: string, tableId: string, actor?: Actor) => call('DELETE', `${tables(baseId)}/${tableId}`, undefined, actor),
    createField: (baseId: string, tableId: string, field: Record<string, unknown>, actor?: Actor) =>
      call('POST', `${tables(baseId)}/${tableId}/fields`, field, actor),
    updateField: (baseId: string, tableId: string, fieldId: string, patch: Record<string, unknown>, actor?: Actor) =>
      call('PATCH', `${tables(baseId)}/${tableId}/fields/${fieldId}`, patch, actor),
    deleteField: (baseId: string, tableId: string, fieldId: string, actor?: Actor) =>
      call('DELETE', `${tables(baseId)}/${tableId}/fields/${fieldId}`, undefined, actor),
  };
}

export type SandboxApi = ReturnType<typeof sandboxApi>;
