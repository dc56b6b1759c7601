import { SANDBOX_API_USER } from '../actor.js';
import type { AuthState } from '../persistence/saved-state.js';
import { airtableError, invalidControlSettings } from '../sandbox-errors.js';
import type { SandboxStore } from '../sandbox-store.js';
import type { SandboxBase, SandboxTable } from '../sandbox.types.js';
import { OAuthClients, type OAuthClientConfig, type StoredOAuthClient } from '../oauth/oauth-clients.js';
import { DEFAULT_REFRESH_GRACE_MS, OAuthGrants } from '../oauth/oauth-grants.js';
import { PersonalTokens, type PersonalTokenGrant, type StoredPersonalToken } from './personal-tokens.js';
import type { Principal } from './principal.js';
import { sameSecret } from './token-format.js';
import { UserDirectory, type PermissionLevel, type SandboxUser } from './user-directory.js';

export interface SandboxOAuthOptions {
  /** Integrations registered at start (they replace saved ones with the same client id). */
  clients?: OAuthClientConfig[];
  /** How long after a refresh the same refresh token gets a 409 rather than `invalid_grant`; default 5,000. */
  refreshGraceMs?: number;
}

export interface SandboxAuthOptions {
  /** SANDBOX_TOKEN: the demo user's PAT with every scope, and the bearer of `/_control/*`. */
  adminToken: string;
  store: SandboxStore;
  now: () => number;
  oauth?: SandboxOAuthOptions;
  saved?: AuthState;
  changed: () => void;
}

/** What `PUT _control/oauth/consent` set: the authorize page then answers at once for this user. */
export interface ConsentOverride {
  userId: string;
  baseIds: 'all' | string[];
  /** Deny instead: the redirect carries `error=access_denied`. */
  deny: boolean;
}

export interface VisibleBase {
  base: SandboxBase;
  level: PermissionLevel;
}

export type TokenSelector = { token: string } | { userId: string };

/** The demo user: owner of the demo bases and of every base no user was given; the admin token is theirs. */
export const DEMO_USER: SandboxUser = SANDBOX_API_USER;

/**
 * Users, their bases and their tokens (PATs and OAuth grants), and the OAuth integrations. Resolves a bearer token
 * to a Principal and answers which bases it may see.
 */
export class SandboxAuth {
  readonly directory: UserDirectory;
  readonly personalTokens: PersonalTokens;
  readonly clients: OAuthClients;
  readonly grants: OAuthGrants;
  private consent: ConsentOverride | null = null;
  private readonly adminToken: string;
  private readonly store: SandboxStore;

  constructor(options: SandboxAuthOptions) {
    const { saved, changed, now } = options;
    this.adminToken = options.adminToken;
    this.store = options.store;
    this.directory = new UserDirectory(DEMO_USER, saved?.directory, changed);
    this.personalTokens = new PersonalTokens(saved?.personalTokens, now, changed);
    this.clients = new OAuthClients(saved?.clients, changed);
    this.grants = new OAuthGrants(saved?.grants, now, options.oauth?.refreshGraceMs ?? DEFAULT_REFRESH_GRACE_MS, changed);
    for (const client of options.oauth?.clients ?? []) this.clients.register(client);
  }

  /** Undefined: no such token, or it expired or was revoked (401). */
  resolve(token: string): Principal | undefined {
    if (sameSecret(token, this.adminToken)) {
      return { kind: 'pat', admin: true, user: DEMO_USER, scopes: 'all', baseIds: 'all' };
    }
    const pat = this.personalTokens.find(token);
    if (pat) {
      const user = this.directory.getUser(pat.userId);
      return user && { kind: 'pat', admin: false, user, scopes: pat.scopes, baseIds: pat.baseIds };
    }
    const grant = this.grants.findByAccessToken(token);
    if (grant) {
      const user = this.directory.getUser(grant.userId);
      return user && { kind: 'oauth', admin: false, user, scopes: grant.scopes, baseIds: grant.baseIds, clientId: grant.clientId };
    }
    return undefined;
  }

  /** The principal's level on an existing base it was granted; undefined when it may not see the base. */
  levelFor(principal: Principal, baseId: string): PermissionLevel | undefined {
    if (!this.store.getBase(baseId)) return undefined;
    if (principal.baseIds !== 'all' && !principal.baseIds.includes(baseId)) return undefined;
    return this.directory.levelOf(baseId, principal.user.id);
  }

  /** In the store's order (creation order). */
  visibleBases(principal: Principal): VisibleBase[] {
    return this.store.listBases().flatMap((base) => {
      const level = this.levelFor(principal, base.id);
      return level ? [{ base, level }] : [];
    });
  }

  basesOfUser(userId: string): VisibleBase[] {
    return this.store.listBases().flatMap((base) => {
      const level = this.directory.levelOf(base.id, userId);
      return level ? [{ base, level }] : [];
    });
  }

  /** A user and their first PAT (every scope, every base of theirs now and later). */
  createUser(email: string, name?: string): { user: SandboxUser; token: string } {
    const user = this.directory.addUser(email, name);
    const { token } = this.personalTokens.create(user.id, { scopes: 'all', baseIds: 'all' });
    return { user, token };
  }

  createPersonalToken(userId: string, grant: PersonalTokenGrant): { token: string; stored: StoredPersonalToken } {
    this.requireUser(userId);
    if (grant.baseIds !== 'all') for (const baseId of grant.baseIds) this.requireBaseOf(userId, baseId);
    return this.personalTokens.create(userId, grant);
  }

  /** A new base owned by the user alone, with one table "Table 1" whose primary field is "Name". */
  createUserBase(userId: string, name: string): { base: SandboxBase; table: SandboxTable } {
    this.requireUser(userId);
    const base = this.store.addBase({ name, tables: [{ name: 'Table 1', fields: [{ name: 'Name', type: 'singleLineText' }] }] });
    this.directory.setOwner(base.id, userId);
    return { base, table: base.tables[0]! };
  }

  share(baseId: string, userId: string, level: PermissionLevel = 'create'): void {
    this.requireUser(userId);
    if (!this.store.getBase(baseId)) throw notFound(`No base ${baseId}`);
    this.directory.share(baseId, userId, level);
  }

  /** Access tokens, refresh tokens and PATs ended now (a PAT cannot expire: it is revoked). The admin token never ends. */
  expire(selector: TokenSelector): number {
    if ('userId' in selector) return this.grants.expireUser(this.requireUser(selector.userId).id);
    this.refuseAdmin(selector.token);
    return this.personalTokens.revoke(selector.token) || this.grants.expireToken(selector.token);
  }

  /** PATs and OAuth grants revoked (a grant's access and refresh token together). */
  revoke(selector: TokenSelector): number {
    if ('userId' in selector) {
      const userId = this.requireUser(selector.userId).id;
      return this.personalTokens.revokeUser(userId) + this.grants.revokeUser(userId);
    }
    this.refuseAdmin(selector.token);
    return this.personalTokens.revoke(selector.token) || this.grants.revokeToken(selector.token);
  }

  registerClient(config: OAuthClientConfig): StoredOAuthClient {
    return this.clients.register(config);
  }

  getConsent(): ConsentOverride | null {
    return this.consent;
  }

  /** Checked now: the user exists and can see every base named. */
  setConsent(consent: ConsentOverride): ConsentOverride {
    this.requireUser(consent.userId);
    if (consent.baseIds !== 'all') for (const baseId of consent.baseIds) this.requireBaseOf(consent.userId, baseId);
    this.consent = { ...consent, baseIds: consent.baseIds === 'all' ? 'all' : [...consent.baseIds] };
    return this.consent;
  }

  clearConsent(): void {
    this.consent = null;
  }

  exportState(): AuthState {
    return {
      directory: this.directory.exportState(),
      personalTokens: this.personalTokens.exportState(),
      clients: this.clients.exportState(),
      grants: this.grants.exportState(),
    };
  }

  requireUser(userId: string): SandboxUser {
    const user = this.directory.getUser(userId);
    if (!user) throw notFound(`No user ${userId}`);
    return user;
  }

  private requireBaseOf(userId: string, baseId: string): void {
    if (!this.store.getBase(baseId) || !this.directory.levelOf(baseId, userId)) {
      throw invalidControlSettings(`Base ${baseId} is not a base of user ${userId}`);
    }
  }

  private refuseAdmin(token: string): void {
    if (sameSecret(token, this.adminToken)) throw invalidControlSettings('The admin token (SANDBOX_TOKEN) cannot be expired or revoked');
  }
}

function notFound(message: string) {
  return airtableError(404, 'NOT_FOUND', message);
}
