import { setTimeout as sleep } from 'node:timers/promises';
import { IsNull, LessThan, type DataSource, type Repository } from 'typeorm';
import { UpstreamConnection } from '../../entities/index.js';
import { AppError, upstreamNotConnected } from '../../errors.js';
import { safeError, type Logger } from '../../logger.js';
import { OAuthTokenError, type OAuthClient } from '../../upstream/oauth-client.js';
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
  /** How long one process may hold the right to refresh before another may take it (default 30 s). */
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
    this.leaseMs = options.refreshLeaseMs ?? 30_000;
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
        if (await this.claim(row)) return this.rotate(row);
        // Another process holds the claim: its pair arrives under a new version, or its claim lapses.
        await sleep(100);
      }
    });
  }

  private async claim(row: UpstreamConnection): Promise<boolean> {
    const now = this.now();
    const result = await this.repository
      .createQueryBuilder()
      .update(UpstreamConnection)
      .set({ refreshingUntil: new Date(now.getTime() + this.leaseMs) })
      .where({ accountId: row.accountId, tokenVersion: row.tokenVersion, status: 'active' })
      .andWhere([{ refreshingUntil: IsNull() }, { refreshingUntil: LessThan(now) }])
      .execute();
    return result.affected === 1;
  }

  private async rotate(row: UpstreamConnection): Promise<AccessToken> {
    if (!this.oauth || !row.refreshToken) {
      await this.markNeedsReauth(row.accountId, row.tokenVersion, 'OAuth is not configured on this deployment any more');
      throw upstreamNotConnected(`The upstream connection ${REAUTH}`);
    }
    try {
      const grant = await this.oauth.refresh(this.secrets.open(row.refreshToken));
      const version = row.tokenVersion + 1;
      // Stored before it is used: the old pair is already dead upstream.
      await this.repository.update(
        { accountId: row.accountId, tokenVersion: row.tokenVersion },
        {
          accessToken: this.secrets.seal(grant.accessToken),
          refreshToken: this.secrets.seal(grant.refreshToken),
          accessExpiresAt: grant.accessExpiresAt,
          refreshExpiresAt: grant.refreshExpiresAt ?? row.refreshExpiresAt,
          scopes: JSON.stringify(grant.scopes),
          tokenVersion: version,
          refreshingUntil: null,
          lastError: null,
          updatedAt: this.now(),
        },
      );
      this.logger.info({ accountId: row.accountId, version }, 'upstream access token refreshed');
      return { token: grant.accessToken, version };
    } catch (error) {
      if (error instanceof OAuthTokenError && error.needsReauthorization) {
        await this.markNeedsReauth(row.accountId, row.tokenVersion, `The upstream refused the refresh (${error.error})`);
        throw upstreamNotConnected(`The upstream connection ${REAUTH}`);
      }
      await this.release(row);
      if (error instanceof OAuthTokenError && error.error === 'conflict') {
        // "Recently refreshed": a pair we did not store. Nothing to do but wait for a stored one or the holder.
        this.logger.warn({ accountId: row.accountId }, 'upstream refresh answered 409 (recently refreshed)');
      } else {
        this.logger.warn({ accountId: row.accountId, err: safeError(error) }, 'upstream token refresh failed');
      }
      throw new AppError('upstream_error', 'The upstream platform could not refresh the connection’s access token');
    }
  }

  private async release(row: UpstreamConnection): Promise<void> {
    await this.repository.update({ accountId: row.accountId, tokenVersion: row.tokenVersion }, { refreshingUntil: null });
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
