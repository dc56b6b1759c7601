import { hashToken, newAccessToken, newAuthorizationCode, newRefreshToken, randomAlnum } from '../auth/token-format.js';
import { refreshConflict, tokenError } from './oauth-errors.js';

const MINUTE_MS = 60_000;
export const CODE_LIFETIME_MS = 10 * MINUTE_MS;
export const ACCESS_TOKEN_LIFETIME_MS = 60 * MINUTE_MS;
export const REFRESH_TOKEN_LIFETIME_MS = 60 * 24 * 60 * MINUTE_MS;
export const DEFAULT_REFRESH_GRACE_MS = 5_000;

/** What the user consented to: the user, the integration, the scopes and the bases ('all': current and future). */
export interface Authorization {
  clientId: string;
  userId: string;
  scopes: string[];
  baseIds: 'all' | string[];
}

interface PendingCode extends Authorization {
  redirectUri: string;
  codeChallenge: string;
  expiresAt: number;
}

/** One authorization of one integration by one user, and its current token pair (digests only). */
export interface StoredGrant extends Authorization {
  id: string;
  createdAt: string;
  access: { hash: string; expiresAt: number };
  refresh: { hash: string; expiresAt: number };
  /** The refresh token exchanged last, for the 409 grace window. */
  rotated: { hash: string; at: number } | null;
}

/** The token route's success body (airtable-oauth.md §2.1). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  scope: string;
  expires_in: number;
  refresh_expires_in: number;
}

export interface RedeemedCode extends Authorization {
  redirectUri: string;
  codeChallenge: string;
}

/**
 * Authorization codes (memory only: 10 minutes, single use) and grants with rotating token pairs: a refresh gives
 * a new access and refresh token and ends the old ones at once; the old refresh token presented again within
 * `graceMs` is a 409, later an `invalid_grant`.
 */
export class OAuthGrants {
  private readonly codes = new Map<string, PendingCode>();
  private readonly grants = new Map<string, StoredGrant>();
  /** Digest of a current access, current refresh or just-rotated refresh token → its grant. */
  private readonly byAccess = new Map<string, StoredGrant>();
  private readonly byRefresh = new Map<string, StoredGrant>();
  private readonly byRotated = new Map<string, StoredGrant>();

  constructor(
    saved: StoredGrant[] | undefined,
    private readonly now: () => number,
    private readonly graceMs: number,
    private readonly changed: () => void,
  ) {
    for (const grant of saved ?? []) this.index(grant);
  }

  issueCode(authorization: Authorization, redirectUri: string, codeChallenge: string): string {
    this.sweepCodes();
    const code = newAuthorizationCode();
    this.codes.set(hashToken(code), { ...authorization, redirectUri, codeChallenge, expiresAt: this.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** Single use even when the exchange then fails: the code is gone after this. Undefined: unknown, used or expired. */
  redeemCode(code: string): RedeemedCode | undefined {
    const hash = hashToken(code);
    const pending = this.codes.get(hash);
    this.codes.delete(hash);
    if (!pending || this.now() >= pending.expiresAt) return undefined;
    const { expiresAt: _expiresAt, ...redeemed } = pending;
    return redeemed;
  }

  createGrant(authorization: Authorization): TokenResponse {
    const now = this.now();
    const id = `oag${randomAlnum(14)}`;
    const access = newAccessToken({
      userId: authorization.userId,
      expiresAt: now + ACCESS_TOKEN_LIFETIME_MS,
      clientId: authorization.clientId,
    });
    const refresh = newRefreshToken();
    const grant: StoredGrant = {
      ...authorization,
      scopes: [...authorization.scopes],
      id,
      createdAt: new Date(now).toISOString(),
      access: { hash: hashToken(access), expiresAt: now + ACCESS_TOKEN_LIFETIME_MS },
      refresh: { hash: hashToken(refresh), expiresAt: now + REFRESH_TOKEN_LIFETIME_MS },
      rotated: null,
    };
    this.index(grant);
    this.changed();
    return toTokenResponse(grant, access, refresh);
  }

  /** Throws the token route's error (`invalid_grant`, `invalid_scope`, or the 409 conflict). */
  refresh(refreshToken: string, clientId: string, scope: string | undefined): TokenResponse {
    const hash = hashToken(refreshToken);
    const now = this.now();
    const rotated = this.byRotated.get(hash);
    if (rotated && rotated.clientId === clientId && rotated.rotated && now < rotated.rotated.at + this.graceMs) throw refreshConflict();
    const grant = this.byRefresh.get(hash);
    if (!grant || grant.clientId !== clientId)
      throw tokenError('invalid_grant', 'The refresh token is invalid, expired, revoked or already used.');
    if (now >= grant.refresh.expiresAt) throw tokenError('invalid_grant', 'The refresh token has expired.');
    let scopes = grant.scopes;
    if (scope !== undefined) {
      const asked = scope.split(' ');
      if (asked.some((item) => !grant.scopes.includes(item)) || new Set(asked).size !== asked.length) {
        throw tokenError('invalid_scope', 'scope must be a subset of the scopes already granted.');
      }
      scopes = asked;
    }
    this.unindex(grant);
    const access = newAccessToken({ userId: grant.userId, expiresAt: now + ACCESS_TOKEN_LIFETIME_MS, clientId });
    const refresh = newRefreshToken();
    grant.scopes = scopes;
    grant.rotated = { hash, at: now };
    grant.access = { hash: hashToken(access), expiresAt: now + ACCESS_TOKEN_LIFETIME_MS };
    grant.refresh = { hash: hashToken(refresh), expiresAt: now + REFRESH_TOKEN_LIFETIME_MS };
    this.index(grant);
    this.changed();
    return toTokenResponse(grant, access, refresh);
  }

  /** The grant whose current access token this is, if it has not expired. */
  findByAccessToken(token: string): StoredGrant | undefined {
    const grant = this.byAccess.get(hashToken(token));
    return grant && this.now() < grant.access.expiresAt ? grant : undefined;
  }

  /** Ends a live access or refresh token now (its grant's other token is untouched); the count of tokens ended. */
  expireToken(token: string): number {
    const hash = hashToken(token);
    const now = this.now();
    const byAccess = this.byAccess.get(hash);
    if (byAccess && now < byAccess.access.expiresAt) return this.expire(byAccess.access, now);
    const byRefresh = this.byRefresh.get(hash);
    if (byRefresh && now < byRefresh.refresh.expiresAt) return this.expire(byRefresh.refresh, now);
    return 0;
  }

  /** Ends every live access token of the user, as if their hour had passed; refresh tokens keep working. */
  expireUser(userId: string): number {
    const now = this.now();
    let count = 0;
    for (const grant of this.grants.values()) {
      if (grant.userId === userId && now < grant.access.expiresAt) count += this.expire(grant.access, now);
    }
    return count;
  }

  /** Revokes the grant of an access, refresh or just-rotated refresh token; the count of grants revoked (0 or 1). */
  revokeToken(token: string): number {
    const hash = hashToken(token);
    const grant = this.byAccess.get(hash) ?? this.byRefresh.get(hash) ?? this.byRotated.get(hash);
    if (!grant) return 0;
    this.revoke(grant);
    return 1;
  }

  /** Revokes every grant of the user (and forgets the codes not yet exchanged). */
  revokeUser(userId: string): number {
    for (const [hash, pending] of this.codes) if (pending.userId === userId) this.codes.delete(hash);
    const revoked = [...this.grants.values()].filter((grant) => grant.userId === userId);
    for (const grant of revoked) this.revoke(grant);
    return revoked.length;
  }

  listGrants(): StoredGrant[] {
    return [...this.grants.values()];
  }

  exportState(): StoredGrant[] {
    return this.listGrants();
  }

  private expire(token: { expiresAt: number }, now: number): number {
    token.expiresAt = now;
    this.changed();
    return 1;
  }

  private revoke(grant: StoredGrant): void {
    this.unindex(grant);
    this.grants.delete(grant.id);
    this.changed();
  }

  private index(grant: StoredGrant): void {
    this.grants.set(grant.id, grant);
    this.byAccess.set(grant.access.hash, grant);
    this.byRefresh.set(grant.refresh.hash, grant);
    if (grant.rotated) this.byRotated.set(grant.rotated.hash, grant);
  }

  private unindex(grant: StoredGrant): void {
    this.byAccess.delete(grant.access.hash);
    this.byRefresh.delete(grant.refresh.hash);
    if (grant.rotated) this.byRotated.delete(grant.rotated.hash);
  }

  private sweepCodes(): void {
    const now = this.now();
    for (const [hash, pending] of this.codes) if (now >= pending.expiresAt) this.codes.delete(hash);
  }
}

function toTokenResponse(grant: StoredGrant, access: string, refresh: string): TokenResponse {
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: 'Bearer',
    scope: grant.scopes.join(' '),
    expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
    refresh_expires_in: REFRESH_TOKEN_LIFETIME_MS / 1000,
  };
}
