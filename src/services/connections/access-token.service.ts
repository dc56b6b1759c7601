import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, Repository } from 'typeorm';
import { UpstreamConnection } from '../../entities/index.js';
import { AppError, upstreamNotConnected } from '../../errors.js';
import { safeError, type Logger } from '../../logger.js';
import { claimRefresh } from '../../repositories/upstream-connection.repository.js';
import { OAuthTokenError, type OAuthClient, type TokenGrant } from '../../upstream/oauth-client.js';
import { KeyedMutex } from '../keyed-mutex.js';
import type { SecretBox } from '../secret-box.js';

/** A token to send, and which stored pair it came from (a 401 with it asks for a refresh of exactly that pair). */
export interface AccessToken {
  token: string;
  version: number;
}

export interface AccessTokenOptions {
  /** Refresh this long before the access token expires (default 5 minutes). */
  refreshMarginMs?: number;
  /** How long one process may hold the right to refresh before another may take it (default 60 s, well past the token request's 10 s). */
  refreshLeaseMs?: number;
  now?: () => Date;
}

const REAUTH = 'needs re-authorisation: reconnect the upstream account (POST /connection/oauth/start or PUT /connection)';

/**
 * Usable access tokens for accounts' connections. Airtable rotates the refresh token on every use and kills the old
 * pair, so a pair is refreshed exactly once however many callers and processes find it expiring: in a process the
 * callers of one account queue on a mutex; across processes the one that claims `refreshing_until` (a conditional
 * update) refreshes and stores the new pair under a new `token_version`, the others wait for that version.
 */
export class AccessTokenService {
  private readonly repository: Repository<UpstreamConnection>;
  private readonly mutex = new KeyedMutex();
  private readonly marginMs: number;
  private readonly leaseMs: number;
  private readonly now: () => Date;

  constructor(
    dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly oauth: OAuthClient | undefined,
    private readonly logger: Logger,
    options: AccessTokenOptions = {},
  ) {
    this.repository = dataSource.getRepository(UpstreamConnection);
    this.marginMs = options.refreshMarginMs ?? 5 * 60_000;
    this.leaseMs = options.refreshLeaseMs ?? 60_000;
    this.now = options.now ?? (() => new Date());
  }

  /** The account's token, refreshed first when it expires within the margin. 409 upstream_not_connected without one. */
  async tokenFor(accountId: string): Promise<AccessToken> {
    const row = await this.requireActive(accountId);
    if (row.kind === 'token' || !this.expiresSoon(row)) return this.tokenOf(row);
    return this.refresh(accountId, row.tokenVersion);
  }

  /**
   * The upstream answered 401 to the token of `version`. OAuth: refresh that pair once (or take the pair another
   * caller stored since). A personal access token cannot be cured: the connection needs the holder.
   */
  async afterUnauthorized(accountId: string, version: number): Promise<AccessToken> {
    const row = await this.requireActive(accountId);
    if (row.tokenVersion !== version) return this.tokenOf(row);
    if (row.kind === 'token') {
      await this.markNeedsReauth(accountId, version, 'The upstream refused the personal access token (401)');
      throw upstreamNotConnected(`The upstream connection ${REAUTH}`);
    }
    return this.refresh(accountId, version);
  }

  /** Marks the pair of `version` dead; a newer pair stored meanwhile is left alone. */
  async markNeedsReauth(accountId: string, version: number, reason: string): Promise<void> {
    const { affected } = await this.repository.update(
      { accountId, tokenVersion: version },
      { status: 'needs_reauth', lastError: reason, refreshingUntil: null, updatedAt: this.now() },
    );
    if (affected) this.logger.warn({ accountId, reason }, 'upstream connection needs re-authorisation');
  }

  private refresh(accountId: string, version: number): Promise<AccessToken> {
    return this.mutex.run(accountId, async () => {
      for (;;) {
        const row = await this.requireActive(accountId);
        if (row.tokenVersion !== version) return this.tokenOf(row);
        const claim = await this.claim(row);
        if (claim) {
          const renewed = await this.rotate(row, claim);
          if (renewed) return renewed;
        }
        // Another process holds the claim (or the upstream said it refreshed this pair moments ago): its pair
        // arrives under a new version, or the claim lapses and the refresh is tried once more.
        await sleep(100);
      }
    });
  }

  /** Claims the right to refresh the pair of `row`; the claim's expiry is its proof of ownership. */
  private async claim(row: UpstreamConnection): Promise<Date | null> {
    const now = this.now();
    const until = new Date(now.getTime() + this.leaseMs);
    return (await claimRefresh(this.repository, row, now, until)) ? until : null;
  }

  /** Refreshes under a claim; null: wait (a 409, or the row changed meanwhile) and look again. */
  private async rotate(row: UpstreamConnection, claim: Date): Promise<AccessToken | null> {
    const mine = { accountId: row.accountId, tokenVersion: row.tokenVersion, refreshingUntil: claim };
    if (!this.oauth || !row.refreshToken) {
      await this.repository.update(mine, { refreshingUntil: null });
      this.logger.error(
        { accountId: row.accountId },
        'an OAuth connection cannot be refreshed: AIRTABLE_OAUTH_CLIENT_ID is not configured',
      );
      throw new AppError('upstream_error', 'The upstream connection cannot be refreshed on this deployment');
    }
    let grant: TokenGrant;
    try {
      grant = await this.oauth.refresh(this.secrets.open(row.refreshToken));
    } catch (error) {
      if (error instanceof OAuthTokenError && error.needsReauthorization) {
        await this.markNeedsReauth(row.accountId, row.tokenVersion, `The upstream refused the refresh (${error.error})`);
        throw upstreamNotConnected(`The upstream connection ${REAUTH}`);
      }
      if (error instanceof OAuthTokenError && error.error === 'conflict') {
        // "Recently refreshed": the claim is kept until it lapses, so nobody spends the token again meanwhile.
        this.logger.warn({ accountId: row.accountId }, 'upstream refresh answered 409 (recently refreshed)');
        return null;
      }
      await this.repository.update(mine, { refreshingUntil: null });
      this.logger.warn({ accountId: row.accountId, err: safeError(error) }, 'upstream token refresh failed');
      throw new AppError('upstream_error', 'The upstream platform could not refresh the connection’s access token');
    }
    const version = row.tokenVersion + 1;
    // Stored before it is used (the old pair is already dead upstream), and only over the pair it replaces.
    const { affected } = await this.repository.update(mine, {
      accessToken: this.secrets.seal(grant.accessToken),
      refreshToken: this.secrets.seal(grant.refreshToken),
      accessExpiresAt: grant.accessExpiresAt,
      refreshExpiresAt: grant.refreshExpiresAt ?? row.refreshExpiresAt,
      scopes: grant.scopes.length ? JSON.stringify(grant.scopes) : row.scopes,
      tokenVersion: version,
      status: 'active',
      refreshingUntil: null,
      lastError: null,
      updatedAt: this.now(),
    });
    if (!affected) {
      // The account connected anew (or the claim lapsed and another process refreshed): its row wins.
      this.logger.warn({ accountId: row.accountId }, 'a refreshed upstream token was not stored: the connection changed meanwhile');
      return null;
    }
    this.logger.info({ accountId: row.accountId, version }, 'upstream access token refreshed');
    return { token: grant.accessToken, version };
  }

  private async requireActive(accountId: string): Promise<UpstreamConnection> {
    const row = await this.repository.findOneBy({ accountId });
    if (!row) throw upstreamNotConnected();
    if (row.status !== 'active') throw upstreamNotConnected(`The upstream connection ${REAUTH}`);
    return row;
  }

  private expiresSoon(row: UpstreamConnection): boolean {
    return row.accessExpiresAt !== null && row.accessExpiresAt.getTime() - this.marginMs <= this.now().getTime();
  }

  private tokenOf(row: UpstreamConnection): AccessToken {
    return { token: this.secrets.open(row.accessToken), version: row.tokenVersion };
  }
}
