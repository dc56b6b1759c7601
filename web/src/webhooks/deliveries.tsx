import { useMutation, useQuery, useSubscription } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { Time } from '../format.js';
import { graphql, type SchemaType } from '../graphql.js';
import { EVENT_NAMES, plural } from '../names.js';
import { PAGE_INFO_FIELDS } from '../pager.js';

const DELIVERIES = graphql(
  `
    query WebhookDeliveries($id: ID!, $after: String) {
      node(id: $id) {
        __typename
        id
        ... on Webhook {
          deliveries(first: 10, after: $after) {
            pageInfo { ...PageInfoFields }
            nodes { id restId status eventType changeCount createdAt nextAttemptAt attempts { attemptedAt statusCode error durationMs } }
          }
        }
      }
    }
  `,
  [PAGE_INFO_FIELDS],
);
/** Each stored attempt of this webhook: the log asks again, so it stays current while it is open. */
const DELIVERY_ATTEMPTED = graphql(`
  subscription DeliveryAttempted($webhookId: ID!) { deliveryAttempted(webhookId: $webhookId) { webhookId deliveryId } }
`);
const RETRY = graphql(`
  mutation RetryDelivery($webhookId: ID!, $deliveryId: ID!) {
    retryWebhookDelivery(input: { webhookId: $webhookId, deliveryId: $deliveryId }) { delivery { id restId status } }
  }
`);

const DELIVERY_STATUS: Record<SchemaType<'WebhookDeliveryStatus'>, string> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
};

/** The delivery log of one webhook, newest first (it pages forward only), with each attempt and "retry"; live while open. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const [after, setAfter] = useState<string[]>([]);
  const { data, error, refetch } = useQuery(DELIVERIES, {
    variables: { id: webhookId, after: after.at(-1) },
    fetchPolicy: 'cache-and-network',
  });
  useSubscription(DELIVERY_ATTEMPTED, { variables: { webhookId }, onData: () => void refetch() });
  const [retry, retrying] = useMutation(RETRY);
  const page = data?.node?.__typename === 'Webhook' ? data.node.deliveries : undefined;
  const onRetry = async (deliveryId: string) => {
    const result = await retry({ variables: { webhookId, deliveryId } }).catch(() => null);
    if (result?.data) await refetch();
  };
  return (
    <div class="deliveries" data-testid="delivery-log">
      <p class="hint">New attempts appear here as they are made.</p>
      <ErrorMessage error={error ?? retrying.error} />
      {page && page.nodes.length === 0 && <p class="empty">No delivery yet: one is made when a matching change is logged.</p>}
      {page && page.nodes.length > 0 && (
        <ul class="delivery-list">
          {page.nodes.map((d) => (
            <li key={d.restId}>
              <strong>{DELIVERY_STATUS[d.status]}</strong> · {EVENT_NAMES[d.eventType]} ({plural(d.changeCount, 'change')}) ·{' '}
              <Time value={d.createdAt} />
              {d.nextAttemptAt && (
                <>
                  {' '}
                  · next try <Time value={d.nextAttemptAt} />
                </>
              )}
              <ol class="attempts">
                {d.attempts.map((a) => (
                  <li key={a.attemptedAt}>
                    <Time value={a.attemptedAt} />: {a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`} in {a.durationMs} ms
                    {a.error ? ` (${a.error})` : ''}
                  </li>
                ))}
              </ol>
              {d.status !== 'SUCCEEDED' && (
                <button type="button" class="secondary" onClick={() => onRetry(d.restId)} disabled={retrying.loading}>
                  Retry now
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {page && (after.length > 0 || page.pageInfo.hasNextPage) && (
        <nav class="pager" aria-label="Delivery pages">
          <button type="button" disabled={after.length === 0} onClick={() => setAfter(after.slice(0, -1))}>
            Newer
          </button>
          <button type="button" disabled={!page.pageInfo.hasNextPage} onClick={() => setAfter([...after, page.pageInfo.endCursor!])}>
            Older
          </button>
        </nav>
      )}
    </div>
  );
}
