/** The upstream calls made for one base, by what they do. */
export interface BaseCalls {
  listRecords: number;
  schemaReads: number;
  payloadReads: number;
  creates: number;
  updates: number;
  /** Other calls naming the base (webhook upkeep, deletions). */
  other: number;
  /** Calls that name no base or another one (the account's base list, the log base). */
  elsewhere: number;
}

export const totalFor = (calls: BaseCalls) =>
  calls.listRecords + calls.schemaReads + calls.payloadReads + calls.creates + calls.updates + calls.other;

/**
 * Counts the upstream calls for `baseId` by kind until stopped, by wrapping the global fetch the upstream client calls
 * (the sandbox counts requests per base, not per endpoint or method).
 */
export function tallyBaseCalls(baseId: string): { stop(): BaseCalls } {
  const original = globalThis.fetch;
  const calls: BaseCalls = { listRecords: 0, schemaReads: 0, payloadReads: 0, creates: 0, updates: 0, other: 0, elsewhere: 0 };
  globalThis.fetch = (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (path.endsWith(`/v0/meta/bases/${baseId}/tables`)) calls.schemaReads++;
    else if (path.includes(`/v0/bases/${baseId}/webhooks`)) path.endsWith('/payloads') ? calls.payloadReads++ : calls.other++;
    else if (path.includes(`/v0/${baseId}/`)) {
      if (method === 'GET') calls.listRecords++;
      else if (method === 'POST') calls.creates++;
      else if (method === 'PATCH') calls.updates++;
      else calls.other++;
    } else calls.elsewhere++;
    return original(input, init);
  };
  return {
    stop() {
      globalThis.fetch = original;
      return { ...calls };
    },
  };
}
