import type { ScopeGrant } from './scopes.js';
import { hashToken, newPersonalToken } from './token-format.js';

/** A PAT as kept: its digest, never the token. */
export interface StoredPersonalToken {
  /** `pat…`, the token's first 17 characters. */
  id: string;
  hash: string;
  userId: string;
  scopes: ScopeGrant;
  /** 'all': every base the user can see, now or later. */
  baseIds: 'all' | string[];
  createdAt: string;
}

export interface PersonalTokenGrant {
  scopes: ScopeGrant;
  baseIds: 'all' | string[];
}

/** Personal access tokens of sandbox users. They never expire; revoking one ends it at once. */
export class PersonalTokens {
  private readonly byHash = new Map<string, StoredPersonalToken>();

  constructor(
    saved: StoredPersonalToken[] | undefined,
    private readonly now: () => number,
    private readonly changed: () => void,
  ) {
    for (const token of saved ?? []) this.byHash.set(token.hash, token);
  }

  /** The token is returned this once. */
  create(userId: string, grant: PersonalTokenGrant): { token: string; stored: StoredPersonalToken } {
    const { id, token } = newPersonalToken();
    const stored: StoredPersonalToken = {
      id,
      hash: hashToken(token),
      userId,
      scopes: grant.scopes,
      baseIds: grant.baseIds,
      createdAt: new Date(this.now()).toISOString(),
    };
    this.byHash.set(stored.hash, stored);
    this.changed();
    return { token, stored };
  }

  find(token: string): StoredPersonalToken | undefined {
    return this.byHash.get(hashToken(token));
  }

  /** 1 when the token was a live PAT, else 0. */
  revoke(token: string): number {
    const removed = this.byHash.delete(hashToken(token));
    if (removed) this.changed();
    return removed ? 1 : 0;
  }

  revokeUser(userId: string): number {
    let count = 0;
    for (const [hash, stored] of this.byHash) {
      if (stored.userId !== userId) continue;
      this.byHash.delete(hash);
      count++;
    }
    if (count > 0) this.changed();
    return count;
  }

  exportState(): StoredPersonalToken[] {
    return [...this.byHash.values()];
  }
}
