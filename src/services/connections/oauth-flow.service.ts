import { randomBytes } from 'node:crypto';
import { LessThan, type DataSource, type Repository } from 'typeorm';
import { OAuthState } from '../../entities/index.js';
import { AppError, invalidRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { createPkcePair, OAuthTokenError, type OAuthClient } from '../../upstream/oauth-client.js';
import type { SecretBox } from '../secret-box.js';
import type { ConnectionService, ConnectionView } from './connection.service.js';

const STATE_LIFETIME_MS = 10 * 60_000;

export interface OAuthCallback {
  code?: string;
  state?: string;
  error?: string;
}

/**
 * The authorization code flow with PKCE (S256): a single-use state bound to the account and kept 10 minutes, the
 * verifier sealed beside it, the code exchanged on the callback, the grant stored as the account's connection.
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

  async start(accountId: string): Promise<{ authorizeUrl: string }> {
    const oauth = this.requireOAuth();
    await this.states.delete({ expiresAt: LessThan(new Date()) });
    const state = randomBytes(32).toString('base64url');
    const { verifier, challenge } = createPkcePair();
    await this.states.insert({
      state,
      accountId,
      codeVerifier: this.secrets.seal(verifier),
      redirectUri: this.redirectUri,
      expiresAt: new Date(Date.now() + STATE_LIFETIME_MS),
    });
    return { authorizeUrl: oauth.authorizeUrl({ redirectUri: this.redirectUri, state, codeChallenge: challenge }) };
  }

  /** GET /oauth/airtable/callback: authenticated by its state alone, which is spent whatever the outcome. */
  async complete({ code, state, error }: OAuthCallback): Promise<{ accountId: string; connection: ConnectionView }> {
    const oauth = this.requireOAuth();
    const pending = state ? await this.take(state) : undefined;
    if (!pending) throw invalidRequest('Unknown, used or expired OAuth state: start the connection again');
    if (error) throw invalidRequest(`The upstream authorization ended with "${error.slice(0, 64)}": nothing was connected`);
    if (!code) throw invalidRequest('The callback carries no authorization code');
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
        throw invalidRequest(`The upstream refused the authorization code (${failure.error}): start the connection again`);
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
    if (!this.oauth) throw new AppError('invalid_request', 'OAuth is not configured on this deployment (AIRTABLE_OAUTH_CLIENT_ID)');
    return this.oauth;
  }
}
