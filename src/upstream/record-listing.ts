import type { z } from 'zod';
import { toQueryString } from './query-string.js';
import { recordsPageSchema } from './response-schemas.js';
import type { UpstreamTransport } from './transport.js';
import type { ListRecordsOptions, RecordListPage } from './types.js';
import { isUpstreamRequestError } from './upstream-error.js';

/** The official client's threshold; the platform itself refuses URLs from 16,000 characters. */
export const MAX_GET_URL_LENGTH = 15_000;
export const MAX_LISTING_RESTARTS = 3;
const ITERATOR_EXPIRED = 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE';

/**
 * Pages of a table, in the upstream's order. Contract: when the upstream forgets the listing's iterator (it expires
 * while the consumer is slow, or the server restarts) the listing starts again from the first page, and that page
 * comes with `restarted: true`: the consumer must drop every record it gathered from earlier pages.
 */
export async function* listRecordPages(
  transport: UpstreamTransport,
  baseId: string,
  tableIdOrName: string,
  options: ListRecordsOptions = {},
  signal?: AbortSignal,
): AsyncGenerator<RecordListPage> {
  const path = `/${encodeURIComponent(baseId)}/${encodeURIComponent(tableIdOrName)}`;
  let offset: string | undefined;
  let restarts = 0;
  let restarted = false;
  for (;;) {
    let page: z.infer<typeof recordsPageSchema>;
    try {
      page = await transport.send({ ...pageRequest(transport, path, options, offset), baseId, signal });
    } catch (error) {
      const expired = isUpstreamRequestError(error) && error.upstreamType === ITERATOR_EXPIRED;
      if (!expired || offset === undefined || restarts >= MAX_LISTING_RESTARTS) throw error;
      restarts += 1;
      restarted = true;
      offset = undefined;
      continue;
    }
    yield { records: page.records, restarted };
    restarted = false;
    offset = page.offset;
    if (offset === undefined) return;
  }
}

function pageRequest(transport: UpstreamTransport, path: string, options: ListRecordsOptions, offset?: string) {
  const { timeZone, userLocale, ...bodyOptions } = options;
  const params = { pageSize: 100, ...bodyOptions, offset };
  const query = toQueryString({ ...params, timeZone, userLocale });
  if (transport.url(path, query).length <= MAX_GET_URL_LENGTH) {
    return { method: 'GET' as const, path, query, schema: recordsPageSchema };
  }
  // The POST variant exists for long field lists and formulas; the server reads these two only from the query.
  return {
    method: 'POST' as const,
    path: `${path}/listRecords`,
    query: toQueryString({ timeZone, userLocale }),
    body: withoutUndefined(params),
    schema: recordsPageSchema,
  };
}

/** The upstream's request parser rejects keys present with no value, notably `offset` on the first page. */
function withoutUndefined(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}
