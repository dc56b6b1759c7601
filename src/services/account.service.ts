import { randomUUID } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import { generateApiKey, hashApiKey, keyPrefix } from '../auth/api-key.js';
import { CallerCache } from '../auth/caller-cache.js';
import { Account, ApiKey } from '../entities/index.js';
import { invalidRequest, notFound } from '../errors.js';

export interface AccountSummary {
  id: string;
  name: string;
}

export interface Caller {
  account: AccountSummary;
  keyId: string;
}

export interface KeySummary {
  id: string;
  accountId: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Accounts and their API keys. Keys are returned in full only by the call that creates them. */
export class AccountService {
  private readonly accounts: Repository<Account>;
  private readonly keys: Repository<ApiKey>;
  private readonly callers = new CallerCache<Caller>();

  constructor(private readonly dataSource: DataSource) {
    this.accounts = dataSource.getRepository(Account);
    this.keys = dataSource.getRepository(ApiKey);
  }

  async create(name: string): Promise<{ account: AccountSummary; apiKey: string }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 255) throw invalidRequest('name must be 1–255 characters');
    const apiKey = generateApiKey();
    return { account: await this.createAccountWithKey(trimmed, apiKey), apiKey };
  }

  async count(): Promise<number> {
    return this.accounts.count();
  }

  async createKey(accountId: string): Promise<{ key: KeySummary; apiKey: string }> {
    await this.requireAccount(accountId);
    const apiKey = generateApiKey();
    const row = await this.keys.save(newKeyRow(accountId, apiKey));
    return { key: toKeySummary(row), apiKey };
  }

  async listKeys(accountId: string): Promise<KeySummary[]> {
    await this.requireAccount(accountId);
    const rows = await this.keys.find({ where: { accountId }, order: { createdAt: 'ASC' } });
    return rows.map(toKeySummary);
  }

  async revokeKey(keyId: string): Promise<KeySummary> {
    const row = await this.keys.findOneBy({ id: keyId });
    if (!row) throw notFound('API key');
    if (!row.revokedAt) {
      row.revokedAt = new Date();
      await this.keys.save(row);
    }
    this.callers.revoke(row.keyHash);
    return toKeySummary(row);
  }

  /**
   * The account holding this key and the key's id, or null for an unknown or revoked key. Runs on every request,
   * so a key that authenticated is kept for a few seconds (see CallerCache for how revocations reach it).
   */
  async authenticate(apiKey: string): Promise<Caller | null> {
    const keyHash = hashApiKey(apiKey);
    return this.callers.getOrLoad(keyHash, () => this.findCaller(keyHash));
  }

  async list(): Promise<AccountSummary[]> {
    const rows = await this.accounts.find({ order: { createdAt: 'ASC' } });
    return rows.map(({ id, name }) => ({ id, name }));
  }

  /** Makes sure an account holds this key (CONTRACT §2 BOOTSTRAP_API_KEY); idempotent. */
  async ensureKey(
    apiKey: string,
    accountName = 'bootstrap',
  ): Promise<{ account: AccountSummary; created: boolean; revoked: boolean }> {
    const existing = await this.keys.findOneBy({ keyHash: hashApiKey(apiKey) });
    if (existing) {
      const account = await this.requireAccount(existing.accountId);
      return { account, created: false, revoked: existing.revokedAt !== null };
    }
    return { account: await this.createAccountWithKey(accountName, apiKey), created: true, revoked: false };
  }

  private async createAccountWithKey(name: string, apiKey: string): Promise<AccountSummary> {
    return this.dataSource.transaction(async (manager) => {
      const account = await manager.save(Account, { id: randomUUID(), name, createdAt: new Date() });
      await manager.save(ApiKey, newKeyRow(account.id, apiKey));
      return { id: account.id, name: account.name };
    });
  }

  /** One indexed lookup (uq_api_key_hash) joined to the account. */
  private async findCaller(keyHash: string): Promise<Caller | null> {
    const row = await this.keys
      .createQueryBuilder('apiKey')
      .innerJoin(Account, 'account', 'account.id = apiKey.accountId')
      .select('apiKey.id', 'keyId')
      .addSelect('account.id', 'accountId')
      .addSelect('account.name', 'accountName')
      .where('apiKey.keyHash = :keyHash AND apiKey.revokedAt IS NULL', { keyHash })
      .getRawOne<{ keyId: string; accountId: string; accountName: string }>();
    return row ? { account: { id: row.accountId, name: row.accountName }, keyId: row.keyId } : null;
  }

  /** The account, or 404 (the CLI's commands that name one). */
  require(accountId: string): Promise<AccountSummary> {
    return this.requireAccount(accountId);
  }

  private async requireAccount(accountId: string): Promise<AccountSummary> {
    const account = await this.accounts.findOneBy({ id: accountId });
    if (!account) throw notFound('Account');
    return { id: account.id, name: account.name };
  }
}

function newKeyRow(accountId: string, apiKey: string): ApiKey {
  return Object.assign(new ApiKey(), {
    id: randomUUID(),
    accountId,
    keyHash: hashApiKey(apiKey),
    keyPrefix: keyPrefix(apiKey),
    createdAt: new Date(),
    revokedAt: null,
  });
}

const toKeySummary = (row: ApiKey): KeySummary => ({
  id: row.id,
  accountId: row.accountId,
  prefix: row.keyPrefix,
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
});
