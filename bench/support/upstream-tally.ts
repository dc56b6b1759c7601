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

/** Like tallyUpstreamCalls, for several bases at once (one wrapper of fetch); calls to no listed base are left out. */
export function tallyUpstreamCallsByBase(baseIds: string[]): { stop(): Map<string, UpstreamCallCounts> } {
  const original = globalThis.fetch;
  const counts = new Map(baseIds.map((baseId) => [baseId, { listRecords: 0, schemaReads: 0, other: 0 }]));
  globalThis.fetch = (input, init) => {
    const segments = new URL(input instanceof Request ? input.url : String(input)).pathname.split('/');
    const v0 = segments.indexOf('v0');
    const rest = segments.slice(v0 + 1);
    const schemaRead = rest[0] === 'meta' && rest[1] === 'bases' && rest[3] === 'tables' && rest.length === 4;
    const baseId = schemaRead ? rest[2] : rest[0];
    const tally = v0 >= 0 && baseId !== undefined ? counts.get(baseId) : undefined;
    if (tally) {
      if (schemaRead) tally.schemaReads++;
      else if (rest.length >= 2) tally.listRecords++;
      else tally.other++;
    }
    return original(input, init);
  };
  return {
    stop() {
      globalThis.fetch = original;
      return new Map([...counts].map(([baseId, tally]) => [baseId, { ...tally }]));
    },
  };
}
