import type { Repository } from 'typeorm';
import { Account, type ApiKey } from '../entities/index.js';

/** The live key of this hash joined to its account: one indexed lookup (uq_api_key_hash). */
export function liveKeyByHash(
  keys: Repository<ApiKey>,
  keyHash: string,
): Promise<{ keyId: string; accountId: string; accountName: string; lastUsedAt: string | null } | undefined> {
  return keys
    .createQueryBuilder('apiKey')
    .innerJoin(Account, 'account', 'account.id = apiKey.accountId')
    .select('apiKey.id', 'keyId')
    .addSelect('account.id', 'accountId')
    .addSelect('account.name', 'accountName')
    .addSelect('apiKey.lastUsedAt', 'lastUsedAt')
    .where('apiKey.keyHash = :keyHash AND apiKey.revokedAt IS NULL', { keyHash })
    .getRawOne<{ keyId: string; accountId: string; accountName: string; lastUsedAt: string | null }>();
}
