import { LRUCache } from 'lru-cache';
import type { DataSource, Repository } from 'typeorm';
import { UpstreamConnection } from '../../entities/index.js';
import { upstreamNotConnected } from '../../errors.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { TokenSource } from '../../upstream/types.js';
import type { AccessTokenService } from './access-token.service.js';

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
   * Whether work for the account can reach the upstream now: false while its connection needs re-authorisation (or
   * it has none and there is no shared token). Scheduled and background work of such an account pauses.
   */
  async canReach(accountId: string): Promise<boolean> {
    const connection = await this.connections.findOne({ select: { accountId: true, status: true }, where: { accountId } });
    return connection ? connection.status === 'active' : this.shared !== undefined;
  }

  private sourceFor(accountId: string, upstreamUserId: string): TokenSource {
    return {
      userKey: upstreamUserId,
      current: () => this.tokens.tokenFor(accountId),
      refused: (version) => this.tokens.afterUnauthorized(accountId, version),
    };
  }
}
