import { LRUCache } from 'lru-cache';
import type { DataSource, Repository } from 'typeorm';
import { UpstreamConnection } from '../../entities/index.js';
import { isAppError, upstreamNotConnected } from '../../errors.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { TokenSource } from '../../upstream/types.js';
import type { AccessTokenService } from './access-token.service.js';

const VISIBLE_BASES_TTL_MS = 60_000;

/** Builds a client that sends a token (fixed, or renewed from a connection) with the shared limits and retries. */
export type ClientForToken = (token: string | TokenSource) => UpstreamClient;

/**
 * The upstream client that acts for an account: its own connection when it has one; otherwise the deployment's
 * shared token in single-team mode (AIRTABLE_SHARED_TOKEN, the sandbox's demo user), else 409
 * upstream_not_connected. Everything a service does upstream for an account goes through here.
 */
export class UpstreamAccess {
  private readonly connections: Repository<UpstreamConnection>;
  private readonly clients = new LRUCache<string, UpstreamClient>({ max: 1_000 });
  /** Which bases each account's connection sees, kept a minute: changes of a base go only to accounts that see it. */
  private readonly visible = new LRUCache<string, Promise<ReadonlySet<string>>>({ max: 10_000, ttl: VISIBLE_BASES_TTL_MS });

  constructor(
    dataSource: DataSource,
    private readonly shared: UpstreamClient | undefined,
    private readonly tokens: AccessTokenService,
    private readonly clientFor: ClientForToken,
  ) {
    this.connections = dataSource.getRepository(UpstreamConnection);
  }

  async forAccount(accountId: string): Promise<UpstreamClient> {
    const connection = await this.connections.findOne({
      select: { accountId: true, upstreamUserId: true, status: true },
      where: { accountId },
    });
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
    const connection = await this.connections.findOne({ select: { accountId: true, upstreamUserId: true }, where: { accountId } });
    return connection ? connection.upstreamUserId : this.shared?.userKey;
  }

  /**
   * Whether work for the account can reach the upstream now: false while its connection needs re-authorisation (or
   * it has none and there is no shared token). Scheduled and background work of such an account pauses.
   */
  async canReach(accountId: string): Promise<boolean> {
    const connection = await this.connections.findOne({ select: { accountId: true, status: true }, where: { accountId } });
    return connection ? connection.status === 'active' : this.shared !== undefined;
  }

  /**
   * Whether the account's connection sees the base now (a listing kept a minute). A refused or missing connection
   * sees nothing; a passing upstream failure is not held against the account (its changes are not dropped for it).
   */
  async sees(accountId: string, baseId: string): Promise<boolean> {
    // Kept per connection: an account that connects another upstream user is looked at afresh.
    const connection = await this.connections.findOne({ select: { accountId: true, upstreamUserId: true }, where: { accountId } });
    const key = `${accountId} ${connection?.upstreamUserId ?? 'shared'}`;
    let bases = this.visible.get(key);
    if (!bases) {
      bases = this.forAccount(accountId)
        .then((client) => client.listBases())
        .then((list) => new Set(list.map((base) => base.id)));
      this.visible.set(key, bases);
    }
    try {
      return (await bases).has(baseId);
    } catch (error) {
      this.visible.delete(key);
      if (isAppError(error) && error.code === 'upstream_not_connected') return false;
      if (isUpstreamRequestError(error) && [401, 403].includes(error.upstreamStatus ?? 0)) return false;
      return true;
    }
  }

  private sourceFor(accountId: string, upstreamUserId: string): TokenSource {
    return {
      userKey: upstreamUserId,
      current: () => this.tokens.tokenFor(accountId),
      refused: (version) => this.tokens.afterUnauthorized(accountId, version),
    };
  }
}
