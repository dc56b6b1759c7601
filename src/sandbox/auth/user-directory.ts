import { userFromEmail } from '../actor.js';
import type { ChangeUser } from '../sandbox-change.types.js';
import { airtableError } from '../sandbox-errors.js';

/** A base collaborator's level, as `GET /v0/meta/bases` reports it; each includes the ones before it. */
export const PERMISSION_LEVELS = ['read', 'comment', 'edit', 'create'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export function atLeast(level: PermissionLevel, required: PermissionLevel): boolean {
  return PERMISSION_LEVELS.indexOf(level) >= PERMISSION_LEVELS.indexOf(required);
}

/** A sandbox user: the id is derived from the email, as the X-Sandbox-User-Email header derives it. */
export type SandboxUser = ChangeUser;

export interface DirectoryState {
  /** Every user but the demo user, who always exists. */
  users: SandboxUser[];
  /** Bases with collaborators set explicitly; any other base belongs to the demo user alone. */
  collaborators: Array<[baseId: string, collaborators: Array<[userId: string, level: PermissionLevel]>]>;
}

/**
 * Who the users are and which bases each can see. A base nobody registered (the demo seed, `store.addBase`,
 * large bases) belongs to the demo user, with `create`; `createUserBase` and `share` register collaborators.
 */
export class UserDirectory {
  private readonly users = new Map<string, SandboxUser>();
  private readonly collaborators = new Map<string, Map<string, PermissionLevel>>();

  constructor(
    readonly demoUser: SandboxUser,
    saved: DirectoryState | undefined,
    private readonly changed: () => void,
  ) {
    this.users.set(demoUser.id, demoUser);
    for (const user of saved?.users ?? []) if (user.id !== demoUser.id) this.users.set(user.id, user);
    for (const [baseId, entries] of saved?.collaborators ?? []) this.collaborators.set(baseId, new Map(entries));
  }

  /** 409 when a user with this email (case-insensitive) exists. */
  addUser(email: string, name?: string): SandboxUser {
    const user = userFromEmail(email, name);
    const existing = this.users.get(user.id);
    if (existing) throw airtableError(409, 'USER_ALREADY_EXISTS', `A user with email ${existing.email} already exists: ${existing.id}`);
    this.users.set(user.id, user);
    this.changed();
    return user;
  }

  getUser(userId: string): SandboxUser | undefined {
    return this.users.get(userId);
  }

  listUsers(): SandboxUser[] {
    return [...this.users.values()];
  }

  /** The user's level on the base; undefined when the user is not a collaborator. */
  levelOf(baseId: string, userId: string): PermissionLevel | undefined {
    const registered = this.collaborators.get(baseId);
    if (!registered) return userId === this.demoUser.id ? 'create' : undefined;
    return registered.get(userId);
  }

  /** A new base of this user (its only collaborator, with `create`). */
  setOwner(baseId: string, userId: string): void {
    this.collaborators.set(baseId, new Map([[userId, 'create']]));
    this.changed();
  }

  /** Adds a collaborator, or changes the level of one. */
  share(baseId: string, userId: string, level: PermissionLevel): void {
    let registered = this.collaborators.get(baseId);
    if (!registered) {
      registered = new Map([[this.demoUser.id, 'create']]);
      this.collaborators.set(baseId, registered);
    }
    registered.set(userId, level);
    this.changed();
  }

  exportState(): DirectoryState {
    return {
      users: [...this.users.values()].filter((user) => user.id !== this.demoUser.id),
      collaborators: [...this.collaborators.entries()].map(([baseId, entries]) => [baseId, [...entries.entries()]]),
    };
  }
}
