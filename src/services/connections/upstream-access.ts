import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { UpstreamConnection } from '../../entities/index.js';
import { upstreamNotConnected } from '../../errors.js';
import { EntityLookup } from '../../repositories/entity-lookup.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { TokenSource, UpstreamBase } from '../../upstream/types.js';
import type { AccessTokenService } from './access-token.service.js';
import { VisibleBases, type BaseListing } from './visible-bases.js';

type AccountConnection = Pick<UpstreamConnection, 'accountId' | 'upstreamUserId' | 'status'>;

/**
 * Kept per connection and its state: an account that connects another upstream user, or reconnects after needing
 * re-authorisation, is looked at afresh (a refusal kept from before must not pause it).
 */
const listingKey = (accountId: string, connection: AccountConnection | null) =>
  connection ? `${accountId} ${connection.upstreamUserId} ${connection.status}` : `${accountId} shared`;

/** The upstream's answer for a base the token may not see (or that does not exist). */
const NOT_VISIBLE = 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND';

/** Builds a client that sends a token (fixed, or renewed from a connection) with the shared limits and retries. */
export type ClientForToken = (token: string | TokenSource) => UpstreamClient;

/**
 * The upstream client that acts for an account: its own connection when it has one; otherwise the deployment's
 * shared token in single-team mode (AIRTABLE_SHARED_TOKEN, the sandbox's demo user), else 409
 * upstream_not_connected. Everything a service does upstream for an account goes through here.
 */
export class UpstreamAccess {
  /** The account's connection, read on every request that checks what the account sees: without the query builder. */
  private readonly connectionByAccount: EntityLookup<UpstreamConnection>;
  private readonly clients = new LRUCache<string, UpstreamClient>({ max: 1_000 });
  /**
   * Which bases each account's connection sees, kept a minute: changes of a base go only to accounts that see it,
   * and a tracked base, config or webhook of a base the connection no longer sees is not_found (CONTRACT §8).
   */
  private readonly visible = new VisibleBases();

  constructor(
    dataSource: DataSource,
    private readonly shared: UpstreamClient | undefined,
    private readonly tokens: AccessTokenService,
    private readonly clientFor: ClientForToken,
  ) {
    this.connectionByAccount = new EntityLookup(dataSource, UpstreamConnection, ['accountId']);
  }

  /** Who the shared token acts for, as whoami tells it: asked once per process (again after a failure). */
  private sharedIdentity: Promise<{ upstreamUserId: string; email: string | null }> | undefined;

  /**
   * The deployment's shared connection when it is the one acting for the account (it has none of its own, and
   * single-team mode is on): whose it is. Null when the account has its own connection or there is no shared one.
   */
  async sharedConnectionFor(accountId: string): Promise<{ upstreamUserId: string; email: string | null } | null> {
    if (!this.shared || (await this.connectionOf(accountId))) return null;
    this.sharedIdentity ??= this.shared.whoami().then(
      (who) => ({ upstreamUserId: who.id, email: who.email ?? null }),
      (error: unknown) => {
        this.sharedIdentity = undefined;
        throw error;
      },
    );
    return this.sharedIdentity;
  }

  async forAccount(accountId: string): Promise<UpstreamClient> {
    return this.clientOf(accountId, await this.connectionOf(accountId));
  }

  private connectionOf(accountId: string): Promise<AccountConnection | null> {
    return this.connectionByAccount.one(accountId);
  }

  private async clientOf(accountId: string, connection: AccountConnection | null): Promise<UpstreamClient> {
    if (!connection) {
      if (this.shared) return this.shared;
      throw upstreamNotConnected();
    }
    // An account that needs to reconnect does not fall back on the shared token: it chose its own connection.
    if (connection.status !== 'active') await this.tokens.tokenFor(accountId);
    const key = `${accountId} ${connection.upstreamUserId}`;
    let client = this.clients.get(key);
    if (!client) {
      client = this.clientFor(this.sourceFor(accountId, connection.upstreamUserId));
      this.clients.set(key, client);
    }
    return client;
  }

  /**
   * Whose budget the account's upstream requests spend: its connection's upstream user, else the shared token's key
   * (`token:<fingerprint>`); undefined when it has neither.
   */
  async userKeyFor(accountId: string): Promise<string | undefined> {
    const connection = await this.connectionOf(accountId);
    return connection ? connection.upstreamUserId : this.shared?.userKey;
  }

  /**
   * Whether work for the account can reach the upstream now: false while its connection needs re-authorisation (or
   * it has none and there is no shared token). Scheduled and background work of such an account pauses.
   */
  async canReach(accountId: string): Promise<boolean> {
    const connection = await this.connectionOf(accountId);
    return connection ? connection.status === 'active' : this.shared !== undefined;
  }

  /**
   * Whether the account's connection sees the base now (a listing kept a minute). A refused or missing connection
   * sees nothing; a passing upstream failure is not held against the account (its changes are not dropped for it).
   */
  async sees(accountId: string, baseId: string): Promise<boolean> {
    const listing = await this.listing(accountId);
    return listing.kind === 'listed' ? listing.bases.has(baseId) : listing.kind === 'unknown';
  }

  /**
   * Which of `baseIds` the account has lost sight of: its connection's list of bases was read and lacks them. When
   * that cannot be told (no connection, one that needs re-authorisation, the upstream failing), none is lost.
   */
  async lostBases(accountId: string, baseIds: Iterable<string>): Promise<Set<string>> {
    const listing = await this.listing(accountId);
    return new Set(listing.kind === 'listed' ? [...baseIds].filter((id) => !listing.bases.has(id)) : []);
  }

  async isLost(accountId: string, baseId: string): Promise<boolean> {
    return (await this.lostBases(accountId, [baseId])).size > 0;
  }

  /**
   * After an upstream refusal during work for a base: true when it was INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND and a
   * fresh listing confirms the connection no longer sees the base (a table deleted meanwhile gives the same 403).
   */
  async lostOn(error: unknown, accountId: string, baseId: string): Promise<boolean> {
    if (!isUpstreamRequestError(error) || error.upstreamStatus !== 403 || error.upstreamType !== NOT_VISIBLE) return false;
    const listing = await this.listing(accountId, true);
    return listing.kind === 'listed' && !listing.bases.has(baseId);
  }

  /** The bases the account's connection sees, read now; what the visibility checks of the next minute go by. */
  async listBases(accountId: string): Promise<UpstreamBase[]> {
    const connection = await this.connectionOf(accountId);
    const bases = await (await this.clientOf(accountId, connection)).listBases();
    this.visible.remember(
      listingKey(accountId, connection),
      bases.map((base) => base.id),
    );
    return bases;
  }

  private async listing(accountId: string, fresh = false): Promise<BaseListing> {
    const connection = await this.connectionOf(accountId);
    const list = async () => (await (await this.clientOf(accountId, connection)).listBases()).map((base) => base.id);
    return this.visible.get(listingKey(accountId, connection), list, fresh);
  }

  private sourceFor(accountId: string, upstreamUserId: string): TokenSource {
    return {
      userKey: upstreamUserId,
      current: () => this.tokens.tokenFor(accountId),
      refused: (version) => this.tokens.afterUnauthorized(accountId, version),
    };
  }
}
