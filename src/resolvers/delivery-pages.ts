import { z } from 'zod';
import { invalidRequest } from '../errors.js';
import type { WebhookDeliveryStatus as DeliveryStatus } from '../entities/index.js';
import type { DeliveryPage } from '../services/webhooks/delivery-log.service.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { cursorCodec } from './relay/cursor.js';
import { MAX_PAGE_SIZE, type Connection } from './relay/paginate.js';
import { toWebhookDeliveryType, type WebhookDeliveryType } from './types/webhook.type.js';

/**
 * An edge's place in a delivery log, in terms the delivery log service pages by: the service cursor a page started at
 * (null: the newest delivery) and how many deliveries of that page precede the position. The service's cursors
 * only mark page ends, so an edge inside a page is "n past the page's start"; the last edge of a page that has a
 * successor gets the service's own cursor, which keeps walking with endCursor free of skips.
 */
const DeliveryPosition = z.tuple([z.string().min(1).max(200).nullable(), z.number().int().min(0).max(MAX_PAGE_SIZE)]);

export interface DeliveryPageArgs {
  first?: number | null;
  after?: string | null;
  status?: DeliveryStatus | null;
}

/** A forward page of a webhook's delivery log (newest first, as REST), Relay style. */
export async function deliveryPage(
  context: GraphqlContext,
  webhookId: string,
  args: DeliveryPageArgs,
  defaultSize: number,
): Promise<Connection<WebhookDeliveryType>> {
  const account = requireAccount(context);
  const first = args.first ?? defaultSize;
  if (first < 0 || first > MAX_PAGE_SIZE) throw invalidRequest(`first must be between 0 and ${MAX_PAGE_SIZE}`);
  const status = args.status ?? undefined;
  const cursors = cursorCodec(context.services.cursors, 'webhook-deliveries', `${webhookId}:${status ?? ''}`, DeliveryPosition);
  const list = (limit: number, cursor: string | null): Promise<DeliveryPage> =>
    context.services.webhookDeliveries.list(account.id, webhookId, { limit, cursor: cursor ?? undefined, status });
  const totalCount = () => context.loaders.counts.deliveries.load({ webhookId, status });
  let [start, skip] = args.after == null ? [null, 0] : cursors.decode(args.after, 'after');
  const hasPreviousPage = args.after != null;
  if (skip > 0) {
    // Step over the deliveries before the position (at most a page) to reach a service cursor.
    const stepped = await list(skip, start);
    if (!stepped.nextCursor) return emptyPage(hasPreviousPage, false, totalCount);
    [start, skip] = [stepped.nextCursor, 0];
  }
  if (first === 0) return emptyPage(hasPreviousPage, (await list(1, start)).deliveries.length > 0, totalCount);
  const page = await list(first, start);
  const edges = page.deliveries.map((delivery, i) => {
    const isLast = i === page.deliveries.length - 1;
    const position: [string | null, number] = isLast && page.nextCursor ? [page.nextCursor, 0] : [start, i + 1];
    return { cursor: cursors.encode(position), node: toWebhookDeliveryType(webhookId, delivery) };
  });
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: page.nextCursor !== undefined,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    get totalCount() {
      return totalCount();
    },
  };
}

const emptyPage = (hasPreviousPage: boolean, hasNextPage: boolean, totalCount: () => Promise<number>): Connection<WebhookDeliveryType> => ({
  edges: [],
  nodes: [],
  pageInfo: { hasNextPage, hasPreviousPage, startCursor: null, endCursor: null },
  get totalCount() {
    return totalCount();
  },
});
