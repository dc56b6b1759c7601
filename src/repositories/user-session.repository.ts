import type { Repository } from 'typeorm';
import { Account, User, type UserSession } from '../entities/index.js';

/** A live session found by its token's hash, with its user and account. */
export interface LiveSessionRow {
  sessionId: string;
  lastUsedAt: string;
  userId: string;
  email: string;
  accountId: string;
  accountName: string;
}

/** Forgets the user's ended sessions (revoked or expired by `now`). */
export async function deleteEndedSessions(sessions: Repository<UserSession>, userId: string, now: Date): Promise<void> {
  await sessions
    .createQueryBuilder()
    .delete()
    .where('user_id = :userId AND (revoked_at IS NOT NULL OR expires_at <= :now)', { userId, now: now.toISOString() })
    .execute();
}

export function liveSessionByTokenHash(sessions: Repository<UserSession>, hash: string, now: Date): Promise<LiveSessionRow | undefined> {
  return sessions
    .createQueryBuilder('session')
    .innerJoin(User, 'user', 'user.id = session.userId')
    .innerJoin(Account, 'account', 'account.id = user.accountId')
    .select('session.id', 'sessionId')
    .addSelect('session.lastUsedAt', 'lastUsedAt')
    .addSelect('user.id', 'userId')
    .addSelect('user.email', 'email')
    .addSelect('account.id', 'accountId')
    .addSelect('account.name', 'accountName')
    .where('session.tokenHash = :hash AND session.revokedAt IS NULL AND session.expiresAt > :now', { hash, now: now.toISOString() })
    .getRawOne<LiveSessionRow>();
}

/** The user's live sessions, most recently used first. */
export function liveSessionsOf(sessions: Repository<UserSession>, userId: string, now: Date): Promise<UserSession[]> {
  return sessions
    .createQueryBuilder('session')
    .where('session.userId = :userId AND session.revokedAt IS NULL AND session.expiresAt > :now', { userId, now: now.toISOString() })
    .orderBy('session.lastUsedAt', 'DESC')
    .addOrderBy('session.id', 'ASC')
    .getMany();
}
