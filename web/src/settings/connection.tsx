import { useMutation } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { ErrorMessage, Field, inputValue } from '../form.js';
import { Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';

export const CONNECTION_FIELDS = graphql(`
  fragment ConnectionFields on UpstreamConnection { kind email upstreamUserId status connectedAt lastError }
`);
export const SHARED_CONNECTION_FIELDS = graphql(`
  fragment SharedConnectionFields on SharedUpstreamConnection { upstreamUserId email }
`);
const CONNECT_TOKEN = graphql(
  `
    mutation ConnectAirtableToken($token: String!) {
      connectAirtableToken(input: { token: $token }) { viewer { id connection { ...ConnectionFields } sharedConnection { upstreamUserId } } }
    }
  `,
  [CONNECTION_FIELDS],
);
const START_OAUTH = graphql(`
  mutation StartAirtableOAuth { startAirtableOAuth(input: {}) { authorizeUrl } }
`);
const DISCONNECT = graphql(
  `
    mutation DisconnectAirtable {
      disconnectAirtable(input: {}) { viewer { id connection { ...ConnectionFields } sharedConnection { ...SharedConnectionFields } } }
    }
  `,
  [CONNECTION_FIELDS, SHARED_CONNECTION_FIELDS],
);

/** Another connection sees other bases: what was read through the old one is dropped. */
const forgetUpstreamReads = { additionalTypenames: ['AirtableBase'] };

type Connection = ResultOf<typeof CONNECTION_FIELDS>;
type SharedConnection = ResultOf<typeof SHARED_CONNECTION_FIELDS>;

/**
 * The account's Airtable connection: its status, connect by OAuth or a pasted token, reconnect, disconnect. The
 * settings page's query reads it (and reads it again after a change here: the answer names its types).
 */
export function ConnectionSection({ connection, shared }: { connection: Connection | null; shared: SharedConnection | null }) {
  const [connectToken, connecting] = useMutation(CONNECT_TOKEN, forgetUpstreamReads);
  const [startOAuth, starting] = useMutation(START_OAUTH);
  const [disconnect, disconnecting] = useMutation(DISCONNECT, forgetUpstreamReads);
  const [token, setToken] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [oauthOutcome] = useState(readOAuthOutcome);
  // Shown only once the connection read back confirms it.
  const connected = oauthOutcome === 'connected' && connection?.kind === 'OAUTH' && connection.status === 'ACTIVE';
  const oauthError = oauthOutcome && oauthOutcome !== 'connected' ? (OAUTH_FAILURES[oauthOutcome] ?? OAUTH_FAILED) : null;

  const onToken = async (event: Event) => {
    event.preventDefault();
    const result = await connectToken({ variables: { token } }).catch(() => null);
    if (result?.data) setToken('');
  };
  const onOAuth = async () => {
    const result = await startOAuth().catch(() => null);
    const url = result?.data?.startAirtableOAuth.authorizeUrl;
    if (url) location.assign(url);
  };
  const onDisconnect = async () => {
    await disconnect().catch(() => null);
    setConfirming(false);
  };

  return (
    <section aria-labelledby="connection-heading">
      <h2 id="connection-heading">Airtable connection</h2>
      {connected && <p role="status">Connected with Airtable.</p>}
      <ErrorMessage error={oauthError ?? connecting.error ?? starting.error ?? disconnecting.error} />
      {!connection && shared && (
        <p class="notice warn" data-testid="shared-connection">
          Using this deployment’s <strong>shared</strong> Airtable connection, as <strong>{shared.email ?? shared.upstreamUserId}</strong>:
          your tracked bases, audit log and webhooks see what that Airtable user sees, and the API calls are made as that user. Connect your
          own Airtable account to use yours instead.
        </p>
      )}
      {!connection && !shared && <p class="empty">Not connected: connect an Airtable account to track its bases.</p>}
      {connection && (
        <dl class="facts" data-testid="connection-status">
          <dt>Status</dt>
          <dd>
            {connection.status === 'ACTIVE' ? (
              <span class="badge ok">Connected</span>
            ) : (
              <span class="badge danger">Needs re-authorisation</span>
            )}
          </dd>
          <dt>Airtable user</dt>
          <dd>{connection.email ?? connection.upstreamUserId}</dd>
          <dt>How</dt>
          <dd>{connection.kind === 'OAUTH' ? 'OAuth' : 'Personal access token'}</dd>
          <dt>Since</dt>
          <dd>
            <Time value={connection.connectedAt} />
          </dd>
          {connection.lastError && (
            <>
              <dt>Last error</dt>
              <dd>{connection.lastError}</dd>
            </>
          )}
        </dl>
      )}
      <p>
        <button type="button" onClick={onOAuth} disabled={starting.loading}>
          {connection ? 'Reconnect with Airtable' : 'Connect with Airtable'}
        </button>
      </p>
      <form onSubmit={onToken} class="inline">
        <Field
          label="Or paste a personal access token"
          type="password"
          name="token"
          autocomplete="off"
          required
          value={token}
          onInput={(e) => setToken(inputValue(e))}
        />
        <button type="submit" disabled={connecting.loading}>
          {connecting.loading ? 'Checking…' : 'Connect with token'}
        </button>
      </form>
      {connection &&
        (confirming ? (
          <p class="confirm">
            <span>Disconnect? Counts, the audit log and webhooks stop until you connect again.</span>{' '}
            <button type="button" class="danger" onClick={onDisconnect}>
              Yes, disconnect
            </button>{' '}
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </p>
        ) : (
          <p>
            <button type="button" class="danger-quiet" onClick={() => setConfirming(true)}>
              Disconnect
            </button>
          </p>
        ))}
    </section>
  );
}

const OAUTH_OUTCOME_COOKIE = 'basewatch_oauth_outcome';
const OAUTH_FAILED = 'Connecting with Airtable failed: nothing was connected.';
/** The page's own words for each code the OAuth callback may set (src/services/connections/oauth-refusal.ts). */
const OAUTH_FAILURES: Record<string, string> = {
  denied: 'Access was not granted on Airtable: nothing was connected.',
  wrong_browser: 'That authorization was not started in this browser: nothing was connected. Connect again from here.',
  expired: 'That authorization expired or was already used: nothing was connected. Connect again.',
  code_refused: 'Airtable refused the authorization: nothing was connected. Connect again.',
  authorization_failed: OAUTH_FAILED,
  not_configured: 'OAuth is not configured on this deployment: connect with a personal access token.',
};

/**
 * The outcome the OAuth callback left in a one-time cookie (a code, never text), read once and deleted. Nothing in
 * the URL counts: a link to this page cannot make it report anything.
 */
function readOAuthOutcome(): string | null {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${OAUTH_OUTCOME_COOKIE}=`));
  if (!entry) return null;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is asynchronous and missing from browsers we support; the cookie must be gone before the page renders
  document.cookie = `${OAUTH_OUTCOME_COOKIE}=; Max-Age=0; Path=/settings; SameSite=Lax`;
  return entry.slice(OAUTH_OUTCOME_COOKIE.length + 1);
}
