import { z } from 'zod';
import { UpstreamBaseId } from '../input-fields.js';
import { MAX_WEBHOOK_URL_LENGTH } from './url-guard.js';
import { WEBHOOK_EVENTS } from './webhook-rules.js';

const Event = z
  .enum(WEBHOOK_EVENTS)
  .meta({ description: 'one of the nine change event types, or usage_threshold (alerts of a tracked base’s usage)' });
const TableId = z.string().regex(/^(tbl[A-Za-z0-9]{14})?$/, 'must be an upstream table id (tbl followed by 14 letters or digits) or ""');
const ColumnId = z.string().regex(/^fld[A-Za-z0-9]{14}$/, 'must be an upstream field id (fld followed by 14 letters or digits)');

/**
 * What listing webhooks (`WebhookService.list`) and creating one (`create`) accept. The URL's scheme and address are
 * checked by the service's guard, at creation and before every delivery.
 */
export const webhookInput = {
  list: z.object({ baseId: z.string().min(1).optional().meta({ description: 'only webhooks of this upstream base' }) }),
  create: z.strictObject({
    baseId: UpstreamBaseId,
    event: Event,
    tableId: TableId.optional(),
    columnId: ColumnId.nullable().optional(),
    webhookUrl: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH).meta({ format: 'uri' }),
    coalesceUpdates: z.boolean().optional().meta({ default: false }),
  }),
};
