import { useMutation, useQuery, useRefetchShown } from '../graphql-hooks.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage, Field, inputValue } from '../form.js';
import { Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { TableScroll } from '../table-scroll.js';

export const API_KEYS_PAGE = 20;
/** What the list shows of a page of keys; the settings page asks for its first page with the rest of the page. */
export const API_KEY_PAGE_FIELDS = graphql(
  `
    fragment ApiKeyPageFields on ApiKeyConnection {
      totalCount
      pageInfo { ...PageInfoFields }
      nodes { id name prefix createdAt lastUsedAt }
    }
  `,
  [PAGE_INFO_FIELDS],
);
type ApiKeyPage = ResultOf<typeof API_KEY_PAGE_FIELDS>;
const API_KEYS = graphql(
  `
    query ApiKeys($first: Int, $after: String, $last: Int, $before: String) {
      viewer { id apiKeys(first: $first, after: $after, last: $last, before: $before) { ...ApiKeyPageFields } }
    }
  `,
  [API_KEY_PAGE_FIELDS],
);
const CREATE = graphql(`
  mutation CreateApiKey($name: String!) {
    createApiKey(input: { name: $name }) { key apiKey { id name prefix } }
  }
`);
const REVOKE = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(input: { id: $id }) { deletedId }
  }
`);

/** Create (the key shown once, with a copy button), list with prefix and times, revoke after a confirmation. */
export function ApiKeysSection({ firstPage }: { firstPage: ApiKeyPage }) {
  const paging = usePaging(API_KEYS_PAGE);
  // The first page comes with the settings page's query; another is asked for here.
  const onFirstPage = !paging.variables.after && !paging.variables.before;
  const { data, error } = useQuery(API_KEYS, { variables: paging.variables, skip: onFirstPage });
  const refetch = useRefetchShown();
  const [create, created] = useMutation(CREATE);
  const [revoke, revoked] = useMutation(REVOKE);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ key: string; name: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const onCreate = async (event: Event) => {
    event.preventDefault();
    const result = await create({ variables: { name } }).catch(() => null);
    const payload = result?.data?.createApiKey;
    if (!payload) return;
    setShown({ key: payload.key, name: payload.apiKey.name ?? '' });
    setCopied(false);
    setName('');
    paging.reset();
    await refetch();
  };
  const onRevoke = async (id: string) => {
    const result = await revoke({ variables: { id } }).catch(() => null);
    setConfirming(null);
    if (result?.data) await refetch();
  };
  const copy = async () => {
    await navigator.clipboard.writeText(shown!.key);
    setCopied(true);
  };
  const keys = onFirstPage ? firstPage : data?.viewer.apiKeys;
  const confirmingKey = keys?.nodes.find((key) => key.id === confirming);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The question is asked where the eye and the keyboard are: its first answer takes the focus (and scrolls in view).
  useEffect(() => confirmButton.current?.focus(), [confirming]);

  return (
    <section aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <p>
        Keys let scripts call the REST and GraphQL APIs as this account (header <code>Authorization: Bearer sk_…</code>).
      </p>
      <form onSubmit={onCreate} class="inline">
        <Field
          label="Key name"
          name="keyName"
          required
          maxLength={100}
          value={name}
          onInput={(e) => setName(inputValue(e))}
          hint="What the key is for, e.g. “CI deploys”."
        />
        <button type="submit" disabled={created.loading}>
          Create key
        </button>
      </form>
      <ErrorMessage error={created.error} />
      {shown && (
        <div class="notice" role="status">
          <p>
            The key “{shown.name}” is shown <strong>only this once</strong>: copy it now.
          </p>
          <p>
            <code class="secret" data-testid="new-api-key">
              {shown.key}
            </code>
          </p>
          <button type="button" onClick={copy}>
            {copied ? 'Copied' : 'Copy key'}
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      <ErrorMessage error={error ?? revoked.error} />
      {keys && keys.totalCount === 0 && <p class="empty">No API keys yet. Create one above to call the API from a script.</p>}
      {keys && keys.nodes.length > 0 && (
        <TableScroll label="API keys">
          <table>
            <caption>
              {keys.totalCount} working {keys.totalCount === 1 ? 'key' : 'keys'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.nodes.map((key) => (
                <tr key={key.id}>
                  <td>{key.name ?? <em>made by the CLI</em>}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <Time value={key.createdAt} />
                  </td>
                  <td>
                    <Time value={key.lastUsedAt} />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="danger-quiet"
                      aria-expanded={confirming === key.id}
                      onClick={() => setConfirming(confirming === key.id ? null : key.id)}
                    >
                      Revoke {key.name ?? key.prefix}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {confirmingKey && (
        // Below the table, not in its sideways scroller: on a phone the question and its buttons stay in view.
        <div class="confirm" data-testid="revoke-confirmation">
          <span>Revoke “{confirmingKey.name ?? confirmingKey.prefix}”? Requests with it will be refused.</span>
          <button type="button" class="danger" ref={confirmButton} onClick={() => onRevoke(confirmingKey.id)} disabled={revoked.loading}>
            Yes, revoke {confirmingKey.name ?? confirmingKey.prefix}
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      )}
      {keys && <Pager label="API key pages" pageInfo={keys.pageInfo} paging={paging} />}
    </section>
  );
}
