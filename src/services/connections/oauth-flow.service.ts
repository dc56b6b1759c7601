import { createHash, randomBytes } from 'node:crypto';
import { LessThan, type DataSource, type Repository } from 'typeorm';
import { OAuthState } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import { createPkcePair, OAuthTokenError, type OAuthClient } from '../../upstream/oauth-client.js';
import type { SecretBox } from '../secret-box.js';
import type { ConnectionService, ConnectionView } from './connection.service.js';
import { OAuthRefusal } from './oauth-refusal.js';

const STATE_LIFETIME_MS = 10 * 60_000;
const UNKNOWN_STATE = 'Unknown, used or expired OAuth state: start the connection again';

export interface OAuthCallback {
  code?: string;
  state?: string;
  error?: string;
}

/**
 * The browser binding's hash is the state: the callback checks the binding it carries (a cookie of the browser that
 * started) against the state in its URL. The state travels in URLs and through the upstream; the binding, 256 random
 * bits, only between the service and that browser, and cannot be recovered from the state.
 */
const stateOf = (browserBinding: string) => createHash('sha256').update(browserBinding).digest('base64url');

/**
 * The authorization code flow with PKCE (S256): a single-use state bound to the account and to the browser that
 * started (see stateOf) and kept 10 minutes, the verifier sealed beside it, the code exchanged on the callback, the
 * grant stored as the account's connection.
 */
export class OAuthFlowService {
  private readonly states: Repository<OAuthState>;

  constructor(
    dataSource: DataSource,
    private readonly oauth: OAuthClient | undefined,
    private readonly connections: ConnectionService,
    private readonly secrets: SecretBox,
    private readonly redirectUri: string,
    private readonly logger: Logger,
  ) {
    this.states = dataSource.getRepository(OAuthState);
  }

  /** The URL to open, and the binding the calling browser must keep (oauth-browser-cookie.ts) for the callback. */
  async start(accountId: string): Promise<{ authorizeUrl: string; browserBinding: string }> {
    const oauth = this.requireOAuth();
    await this.states.delete({ expiresAt: LessThan(new Date()) });
    const browserBinding = randomBytes(32).toString('base64url');
    const state = stateOf(browserBinding);
    const { verifier, challenge } = createPkcePair();
    await this.states.insert({
      state,
      accountId,
      codeVerifier: this.secrets.seal(verifier),
      redirectUri: this.redirectUri,
      expiresAt: new Date(Date.now() + STATE_LIFETIME_MS),
    });
    return { authorizeUrl: oauth.authorizeUrl({ redirectUri: this.redirectUri, state, codeChallenge: challenge }), browserBinding };
  }

  /**
   * GET /oauth/airtable/callback: authenticated by its state and the binding of the browser that started the flow
   * (without it, someone else's authorization URL consented in a victim's browser would connect the victim's upstream
   * account to theirs). The state is spent whatever the outcome, once the binding matches.
   */
  async complete(
    { code, state, error }: OAuthCallback,
    browserBinding: string | undefined,
  ): Promise<{ accountId: string; connection: ConnectionView }> {
    const oauth = this.requireOAuth();
    if (!state) throw new OAuthRefusal('expired', UNKNOWN_STATE);
    if (!browserBinding || stateOf(browserBinding) !== state) {
      throw new OAuthRefusal(
        'wrong_browser',
        'This callback does not come from the browser that started the connection (its cookie is missing or belongs to another start): nothing was connected; start again and open the authorization URL in the browser that started it',
      );
    }
    const pending = await this.take(state);
    if (!pending) throw new OAuthRefusal('expired', UNKNOWN_STATE);
    if (error) {
      const reason = error === 'access_denied' ? 'denied' : 'authorization_failed';
      throw new OAuthRefusal(reason, `The upstream authorization ended with "${error.slice(0, 64)}": nothing was connected`);
    }
    if (!code) throw new OAuthRefusal('authorization_failed', 'The callback carries no authorization code');
    try {
      const grant = await oauth.exchangeCode({
        code,
        redirectUri: pending.redirectUri,
        codeVerifier: this.secrets.open(pending.codeVerifier),
      });
      const connection = await this.connections.storeGrant(pending.accountId, grant);
      return { accountId: pending.accountId, connection };
    } catch (failure) {
      if (failure instanceof OAuthTokenError) {
        this.logger.warn({ accountId: pending.accountId, status: failure.status, error: failure.error }, 'OAuth code exchange refused');
        throw new OAuthRefusal(
          'code_refused',
          `The upstream refused the authorization code (${failure.error}): start the connection again`,
        );
      }
      throw failure;
    }
  }

  /** Deletes the state row and returns it only if this call deleted it (single use, also across processes). */
  private async take(state: string): Promise<OAuthState | undefined> {
    const row = await this.states.findOneBy({ state });
    if (!row) return undefined;
    const { affected } = await this.states.delete({ state });
    if (affected !== 1 || row.expiresAt.getTime() <= Date.now()) return undefined;
    return row;
  }

  private requireOAuth(): OAuthClient {
    if (!this.oauth) throw new OAuthRefusal('not_configured', 'OAuth is not configured on this deployment (AIRTABLE_OAUTH_CLIENT_ID)');
    return this.oauth;
  }
}
