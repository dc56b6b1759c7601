import { randomInt } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import { UpstreamConnection, type UpstreamConnectionKind, type UpstreamConnectionStatus } from '../../entities/index.js';
import { invalidRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { TokenGrant } from '../../upstream/oauth-client.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import type { SecretBox } from '../secret-box.js';
import { bearerToken } from '../../upstream/bearer-token.js';
import type { ClientForToken } from './upstream-access.js';

/** What an account may see of its connection: never a token. */
export interface ConnectionView {
  kind: UpstreamConnectionKind;
  upstreamUserId: string;
  email: string | null;
  scopes: string[] | null;
  status: UpstreamConnectionStatus;
  connectedAt: Date;
  lastError: string | null;
}

/** Who an upstream token acts for, as whoami tells it. */
interface UpstreamIdentity {
  id: string;
  email?: string;
  scopes?: string[];
}

/**
 * An account's own upstream connection (CONTRACT §8): a personal access token checked with whoami before it is
 * stored, or an OAuth grant stored by the authorization flow. Tokens are sealed at rest and never leave this layer
 * except to the upstream.
 */
export class ConnectionService {
  private readonly repository: Repository<UpstreamConnection>;

  constructor(
    dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly clientFor: ClientForToken,
    private readonly logger: Logger,
  ) {
    this.repository = dataSource.getRepository(UpstreamConnection);
  }

  async get(accountId: string): Promise<ConnectionView | null> {
    const row = await this.repository.findOneBy({ accountId });
    return row ? toView(row) : null;
  }

  /** PUT /connection: the token is checked with the upstream first; a refused one stores nothing. */
  async setToken(accountId: string, token: string): Promise<ConnectionView> {
    // REST and GraphQL check the input schema already; the CLI comes straight here.
    const shape = bearerToken.safeParse(token);
    if (!shape.success) throw invalidRequest(`token: ${shape.error.issues[0]!.message}`);
    const identity = await this.identify(token);
    const now = new Date();
    const row = await this.store(accountId, {
      kind: 'token',
      upstreamUserId: identity.id,
      email: identity.email ?? null,
      scopes: null,
      accessToken: this.secrets.seal(token),
      refreshToken: null,
      accessExpiresAt: null,
      refreshExpiresAt: null,
      connectedAt: now,
    });
    this.logger.info({ accountId, kind: 'token', upstreamUserId: identity.id }, 'upstream connection stored');
    return toView(row);
  }

  /** The end of the OAuth flow: the grant's first access token tells whose it is. */
  async storeGrant(accountId: string, grant: TokenGrant): Promise<ConnectionView> {
    const identity = await this.identify(grant.accessToken);
    const row = await this.store(accountId, {
      kind: 'oauth',
      upstreamUserId: identity.id,
      email: identity.email ?? null,
      scopes: JSON.stringify(identity.scopes ?? grant.scopes),
      accessToken: this.secrets.seal(grant.accessToken),
      refreshToken: this.secrets.seal(grant.refreshToken),
      accessExpiresAt: grant.accessExpiresAt,
      refreshExpiresAt: grant.refreshExpiresAt,
      connectedAt: new Date(),
    });
    this.logger.info({ accountId, kind: 'oauth', upstreamUserId: identity.id }, 'upstream connection stored');
    return toView(row);
  }

  async remove(accountId: string): Promise<void> {
    const { affected } = await this.repository.delete({ accountId });
    if (affected) this.logger.info({ accountId }, 'upstream connection removed');
  }

  private async identify(token: string): Promise<UpstreamIdentity> {
    try {
      return await this.clientFor(token).whoami();
    } catch (error) {
      if (isUpstreamRequestError(error) && (error.upstreamStatus === 401 || error.upstreamStatus === 403)) {
        throw invalidRequest('The upstream refused this token (it is unknown, expired or revoked)');
      }
      throw error;
    }
  }

  /** One row per account: a new connection replaces the old one whole, and any refresh in progress loses (its version is gone). */
  private async store(
    accountId: string,
    fields: Omit<UpstreamConnection, 'accountId' | 'status' | 'tokenVersion' | 'refreshingUntil' | 'lastError' | 'updatedAt'>,
  ): Promise<UpstreamConnection> {
    const row = Object.assign(new UpstreamConnection(), {
      ...fields,
      accountId,
      status: 'active' as const,
      // Never a version an earlier pair of this account had: a late 401 or refresh of that pair must not touch this one.
      tokenVersion: randomInt(1, 2 ** 30),
      refreshingUntil: null,
      lastError: null,
      updatedAt: new Date(),
    });
    return this.repository.save(row);
  }
}

export function toView(row: UpstreamConnection): ConnectionView {
  return {
    kind: row.kind,
    upstreamUserId: row.upstreamUserId,
    email: row.email,
    scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]),
    status: row.status,
    connectedAt: row.connectedAt,
    lastError: row.lastError,
  };
}
