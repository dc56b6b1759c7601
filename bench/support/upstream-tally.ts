export interface UpstreamCallCounts {
  listRecords: number;
  schemaReads: number;
  other: number;
}

/**
 * Counts the upstream calls made for one base, by endpoint, until stopped. The sandbox counts requests per base
 * but not per endpoint, and the upstream client calls the global fetch, so wrapping it is where they can be told apart.
 */
export function tallyUpstreamCalls(baseId: string): { stop(): UpstreamCallCounts } {
  const original = globalThis.fetch;
  const counts: UpstreamCallCounts = { listRecords: 0, schemaReads: 0, other: 0 };
  const schemaPath = `/v0/meta/bases/${baseId}/tables`;
  const recordsPath = `/v0/${baseId}/`;
  globalThis.fetch = (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path.endsWith(schemaPath)) counts.schemaReads++;
    else if (path.includes(recordsPath)) counts.listRecords++;
    else counts.other++;
    return original(input, init);
  };
  return {
    stop() {
      globalThis.fetch = original;
      return { ...counts };
    },
  };
}
