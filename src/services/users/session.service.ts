import { randomUUID } from 'node:crypto';
import { IsNull, type DataSource, type Repository } from 'typeorm';
import { SESSION_LIFETIME_MS, csrfTokenOf, generateToken, hashToken } from '../credentials/session-token.js';
import { UserSession } from '../../entities/index.js';
import { deleteEndedSessions, liveSessionByTokenHash, liveSessionsOf } from '../../repositories/user-session.repository.js';
import type { AccountSummary } from '../account.service.js';

/** A session's expiry moves forward at most this often, so a busy page does not write on every request. */
const SLIDE_EVERY_MS = 5 * 60 * 1000;

export interface UserSummary {
  id: string;
  email: string;
}

/** What GET /auth/session answers, and sign-up / sign-in with it. */
export interface SessionView {
  user: UserSummary;
  account: AccountSummary;
  csrfToken: string;
}

export interface SessionCaller extends SessionView {
  sessionId: string;
  /** True when this request moved the expiry forward: the cookie is sent again with the new Max-Age. */
  extended: boolean;
}

export interface SessionListItem {
  id: string;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  current: boolean;
}

/** Sessions of the web application's users: created at sign-in, looked up on every cookie request, revocable. */
export class SessionService {
  private readonly sessions: Repository<UserSession>;

  constructor(dataSource: DataSource) {
    this.sessions = dataSource.getRepository(UserSession);
  }

  /** A new session; the token (for the cookie) exists only in this answer. Forgets the user's ended sessions. */
  async create(userId: string, userAgent: string | undefined): Promise<{ token: string; sessionId: string }> {
    const token = generateToken();
    const now = new Date();
    await deleteEndedSessions(this.sessions, userId, now);
    const row = await this.sessions.save(
      Object.assign(new UserSession(), {
        id: randomUUID(),
        userId,
        tokenHash: hashToken(token),
        userAgent: userAgent ? userAgent.slice(0, 255) : null,
        createdAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
        revokedAt: null,
      }),
    );
    return { token, sessionId: row.id };
  }

  /**
   * The live session of this cookie token with its user and account, or null. Not cached: a revocation (sign-out,
   * password change, "sign out everywhere", from any process) refuses the very next request.
   */
  async authenticate(token: string): Promise<SessionCaller | null> {
    const now = new Date();
    const row = await liveSessionByTokenHash(this.sessions, hashToken(token), now);
    if (!row) return null;
    const extended = now.getTime() - new Date(row.lastUsedAt).getTime() >= SLIDE_EVERY_MS;
    if (extended) {
      await this.sessions.update({ id: row.sessionId }, { lastUsedAt: now, expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) });
    }
    return {
      sessionId: row.sessionId,
      user: { id: row.userId, email: row.email },
      account: { id: row.accountId, name: row.accountName },
      csrfToken: csrfTokenOf(token),
      extended,
    };
  }

  /** The user's live sessions, most recently used first. */
  async list(userId: string, currentSessionId: string): Promise<SessionListItem[]> {
    const rows = await liveSessionsOf(this.sessions, userId, new Date());
    return rows.map((row) => ({
      id: row.id,
      userAgent: row.userAgent,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
      expiresAt: row.expiresAt,
      current: row.id === currentSessionId,
    }));
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sessions.update({ id: sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Ends every session of the user ("sign out everywhere", a password change). */
  async revokeAll(userId: string): Promise<void> {
    await this.sessions.update({ userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }
}
