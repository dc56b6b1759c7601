import { useMutation, useQuery } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Layout } from '../layout.js';
import { EVENT_NAMES } from '../names.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { CreateWebhook, SecretNotice } from '../webhooks/create-webhook.js';
import { DeliveryLog } from '../webhooks/deliveries.js';

/** airtableBases is null (with an error) when the upstream could not be read: the stored webhooks still show. */
const WEBHOOKS = graphql(
  `
    query Webhooks($first: Int, $after: String, $last: Int, $before: String) {
      webhooks(first: $first, after: $after, last: $last, before: $before) {
        totalCount
        pageInfo { ...PageInfoFields }
        nodes { id baseId event tableId tableName columnId columnName webhookUrl coalesceUpdates createdAt upstreamAccess }
      }
      airtableBases { id restId name }
    }
  `,
  [PAGE_INFO_FIELDS],
);
const DELETE = graphql(`
  mutation DeleteWebhook($id: ID!) { deleteWebhook(input: { id: $id }) { deletedId } }
`);
const ROTATE = graphql(`
  mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(input: { id: $id }) { secret webhook { id } } }
`);

/** Webhooks: list, create (secret shown once), delete and rotate after a confirmation, the delivery log of each. */
export function WebhooksPage() {
  const paging = usePaging(20);
  const { data, error, refetch } = useQuery(WEBHOOKS, { variables: paging.variables, errorPolicy: 'all' });
  const [remove, removing] = useMutation(DELETE);
  const [rotate, rotating] = useMutation(ROTATE);
  const [confirming, setConfirming] = useState<{ id: string; action: 'delete' | 'rotate' } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const hooks = data?.webhooks;
  const baseNames = new Map(data?.airtableBases?.map((b) => [b.restId, b.name]));

  const confirm = async () => {
    if (!confirming) return;
    if (confirming.action === 'delete') {
      const result = await remove({ variables: { id: confirming.id } }).catch(() => null);
      if (result?.data) await refetch();
    } else {
      const result = await rotate({ variables: { id: confirming.id } }).catch(() => null);
      if (result?.data) setSecret(result.data.rotateWebhookSecret.secret);
    }
    setConfirming(null);
  };

  return (
    <Layout title="Webhooks">
      <p>Webhooks forward a base's changes to your URL, signed (Standard Webhooks) and retried.</p>
      <ErrorMessage error={error ?? removing.error ?? rotating.error} />
      {secret && <SecretNotice secret={secret} onDone={() => setSecret(null)} />}
      {hooks && hooks.totalCount === 0 && <p class="empty">No webhook yet. Create one below to have changes POSTed to your URL.</p>}
      {hooks && hooks.nodes.length > 0 && (
        <ul class="cards">
          {hooks.nodes.map((hook) => (
            <li key={hook.id} class={hook.upstreamAccess === 'LOST' ? 'card lost' : 'card'} data-testid="webhook">
              <p>
                <WebhookSummary hook={hook} baseName={baseNames.get(hook.baseId)} />
              </p>
              <p class="url">{hook.webhookUrl}</p>
              {hook.upstreamAccess === 'LOST' && (
                <p>
                  <span class="badge warn">Not visible to your Airtable connection</span> nothing is forwarded while it cannot see the base
                </p>
              )}
              <p class="hint">
                Created <Time value={hook.createdAt} />
              </p>
              {confirming?.id === hook.id ? (
                <p class="confirm">
                  <span>
                    {confirming.action === 'delete'
                      ? 'Delete this webhook? Its log stays.'
                      : 'Replace the secret? The old one co-signs for 24 hours.'}
                  </span>{' '}
                  <button type="button" class="danger" onClick={confirm}>
                    {confirming.action === 'delete' ? 'Yes, delete' : 'Yes, rotate'}
                  </button>{' '}
                  <button type="button" class="secondary" onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                </p>
              ) : (
                <p class="actions">
                  <button
                    type="button"
                    class="secondary"
                    aria-expanded={open === hook.id}
                    onClick={() => setOpen(open === hook.id ? null : hook.id)}
                  >
                    Delivery log
                  </button>{' '}
                  <button type="button" class="secondary" onClick={() => setConfirming({ id: hook.id, action: 'rotate' })}>
                    Rotate secret
                  </button>{' '}
                  <button type="button" class="danger-quiet" onClick={() => setConfirming({ id: hook.id, action: 'delete' })}>
                    Delete
                  </button>
                </p>
              )}
              {open === hook.id && <DeliveryLog webhookId={hook.id} />}
            </li>
          ))}
        </ul>
      )}
      {hooks && <Pager label="Webhook pages" pageInfo={hooks.pageInfo} paging={paging} />}
      {data && (
        <CreateWebhook
          bases={data.airtableBases ?? []}
          onCreated={(created) => {
            setSecret(created);
            paging.reset();
            refetch();
          }}
        />
      )}
    </Layout>
  );
}

type WebhookNode = ResultOf<typeof WEBHOOKS>['webhooks']['nodes'][number];

/** An id whose name is not known now: shown as it is, and said so. */
const Unnamed = ({ id, what }: { id: string; what: string }) => (
  <>
    <code>{id}</code> <span class="badge quiet">{what} not found</span>
  </>
);

/** "Record updated in Campaigns, field Budget, of Marketing Assets": what the webhook forwards, by name. */
function WebhookSummary({ hook, baseName }: { hook: WebhookNode; baseName: string | undefined }) {
  const base = baseName ?? <Unnamed id={hook.baseId} what="base" />;
  if (hook.event === 'USAGE_THRESHOLD')
    return (
      <>
        <strong>{EVENT_NAMES[hook.event]}s</strong> of {base}
      </>
    );
  return (
    <>
      <strong>{EVENT_NAMES[hook.event]}</strong> in{' '}
      {hook.tableId ? (hook.tableName ?? <Unnamed id={hook.tableId} what="table" />) : 'any table'}
      {hook.columnId && <>, field {hook.columnName ?? <Unnamed id={hook.columnId} what="field" />}</>} of {base}
      {hook.coalesceUpdates && ', quick successive updates merged'}
    </>
  );
}
