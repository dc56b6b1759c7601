import { useMutation, useQuery } from '../graphql-hooks.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { BaseSelect, ErrorMessage, Field, inputValue, selectValue } from '../form.js';
import { graphql, type SchemaType } from '../graphql.js';
import { EVENT_NAMES } from '../names.js';

export const EVENTS = [
  'RECORD_CREATE',
  'RECORD_UPDATE',
  'RECORD_DELETE',
  'COLUMN_CREATE',
  'COLUMN_UPDATE',
  'COLUMN_DELETE',
  'TABLE_CREATE',
  'TABLE_UPDATE',
  'TABLE_DELETE',
  'USAGE_THRESHOLD',
] as const satisfies ReadonlyArray<SchemaType<'WebhookEvent'>>;
const COLUMN_EVENTS = new Set<SchemaType<'WebhookEvent'>>(['RECORD_UPDATE', 'COLUMN_UPDATE', 'COLUMN_DELETE']);

const TABLES = graphql(`
  query WebhookTables($baseId: ID!) { airtableTables(baseId: $baseId) { id restId name fields { id restId name } } }
`);
const CREATE = graphql(`
  mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id } } }
`);

/** A new webhook: base, event, table and column picked from the upstream, the URL; its signing secret shown once. */
export function CreateWebhook({
  bases,
  onCreated,
}: {
  bases: Array<{ restId: string; name: string }>;
  /** With the signing secret, which the page shows at its top. */
  onCreated: (secret: string) => void;
}) {
  const [baseId, setBaseId] = useState('');
  const tables = useQuery(TABLES, { variables: { baseId }, skip: !baseId });
  const [event, setEvent] = useState<SchemaType<'WebhookEvent'>>('RECORD_CREATE');
  const [tableId, setTableId] = useState('');
  const [columnId, setColumnId] = useState('');
  const [webhookUrl, setUrl] = useState('');
  const [coalesce, setCoalesce] = useState(false);
  const [create, created] = useMutation(CREATE);
  // Table events watch every table; usage alerts are of the base, not of a table.
  const tableEvent = event.startsWith('TABLE_') || event === 'USAGE_THRESHOLD';
  const table = tables.data?.airtableTables?.find((t) => t.restId === tableId);

  const submit = async (e: Event) => {
    e.preventDefault();
    const input = {
      baseId,
      event,
      tableId: tableEvent ? '' : tableId,
      columnId: COLUMN_EVENTS.has(event) && columnId ? columnId : null,
      webhookUrl,
      coalesceUpdates: event === 'RECORD_UPDATE' ? coalesce : false,
    };
    const result = await create({ variables: { input } }).catch(() => null);
    if (!result?.data) return;
    setUrl('');
    onCreated(result.data.createWebhook.secret);
  };

  return (
    <section aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New webhook</h2>
      <form onSubmit={submit} class="stacked">
        <BaseSelect
          id="webhook-base"
          label="Base"
          bases={bases}
          value={baseId}
          onPick={(picked) => {
            setBaseId(picked);
            setTableId('');
            setColumnId('');
          }}
        />
        <div class="field">
          <label for="webhook-event">Event</label>
          <select id="webhook-event" value={event} onChange={(e) => setEvent(selectValue(e) as SchemaType<'WebhookEvent'>)}>
            {EVENTS.map((name) => (
              <option key={name} value={name}>
                {EVENT_NAMES[name]}
              </option>
            ))}
          </select>
        </div>
        {!tableEvent && (
          <div class="field">
            <label for="webhook-table">Table</label>
            <select
              id="webhook-table"
              required
              value={tableId}
              onChange={(e) => {
                setTableId(selectValue(e));
                setColumnId('');
              }}
            >
              <option value="">{baseId ? 'Pick a table…' : 'Pick a base first'}</option>
              {tables.data?.airtableTables?.map((t) => (
                <option key={t.restId} value={t.restId}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {COLUMN_EVENTS.has(event) && (
          <div class="field">
            <label for="webhook-column">Field (optional)</label>
            <select id="webhook-column" value={columnId} onChange={(e) => setColumnId(selectValue(e))}>
              <option value="">Any field</option>
              {table?.fields.map((f) => (
                <option key={f.restId} value={f.restId}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <Field
          label="URL"
          type="url"
          name="webhookUrl"
          required
          placeholder="https://example.com/hooks/airtable"
          value={webhookUrl}
          onInput={(e) => setUrl(inputValue(e))}
        />
        {event === 'RECORD_UPDATE' && (
          <div class="check">
            <input
              type="checkbox"
              id="webhook-coalesce"
              checked={coalesce}
              onChange={(e) => setCoalesce((e.currentTarget as HTMLInputElement).checked)}
            />
            <label for="webhook-coalesce">Merge a record's quick successive updates into one delivery</label>
          </div>
        )}
        <div>
          <button type="submit" disabled={created.loading}>
            Create webhook
          </button>
        </div>
      </form>
      <ErrorMessage error={created.error ?? tables.error} />
    </section>
  );
}

/**
 * A signing secret, shown this once at the top of the page, focused (so it is in view and read out), with a copy
 * button.
 */
export function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setCopied(false);
    box.current?.focus();
  }, [secret]);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <div class="notice secret-notice" role="status" tabIndex={-1} ref={box} data-testid="secret-notice">
      <p>
        The signing secret is shown <strong>only this once</strong>: store it where your receiver checks signatures.
      </p>
      <p>
        <code class="secret" data-testid="webhook-secret">
          {secret}
        </code>
      </p>
      <p class="actions">
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy secret'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </p>
    </div>
  );
}
