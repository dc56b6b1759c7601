import { randomUUID } from 'node:crypto';
import { IsNull, type DataSource, type Repository } from 'typeorm';
import { generateApiKey, hashApiKey, keyPrefix } from './credentials/api-key.js';
import { CallerCache } from './credentials/caller-cache.js';
import type { Quotas } from '../config.js';
import { Account, ApiKey } from '../entities/index.js';
import { invalidRequest, notFound } from '../errors.js';
import { liveKeyByHash } from '../repositories/api-key.repository.js';
import { Quota } from './quota.js';

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
  /** Null for keys made by the CLI. */
  name: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A key's last use is written at most this often (one row update per key and minute, not one per request). */
export const KEY_USE_RESOLUTION_MS = 60_000;

/** Accounts and their API keys. Keys are returned in full only by the call that creates them. */
export class AccountService {
  private readonly accounts: Repository<Account>;
  private readonly keys: Repository<ApiKey>;
  private readonly callers = new CallerCache<Caller>();
  private readonly keyQuota: Quota;

  constructor(
    private readonly dataSource: DataSource,
    quotas: Pick<Quotas, 'apiKeysPerAccount'>,
  ) {
    this.accounts = dataSource.getRepository(Account);
    this.keys = dataSource.getRepository(ApiKey);
    this.keyQuota = new Quota('apiKeysPerAccount', quotas.apiKeysPerAccount, 'working API keys', 'revoke one');
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

  async createKey(accountId: string, name: string | null = null): Promise<{ key: KeySummary; apiKey: string }> {
    await this.requireAccount(accountId);
    const working = () => this.keys.countBy({ accountId, revokedAt: IsNull() });
    return this.keyQuota.run(accountId, async () => {
      await this.keyQuota.requireRoom(working);
      const apiKey = generateApiKey();
      const row = Object.assign(newKeyRow(accountId, apiKey), { name });
      await this.keys.insert(row);
      await this.keyQuota.keepWithin(working, () => this.keys.delete({ id: row.id }));
      return { key: toKeySummary(row), apiKey };
    });
  }

  /** The account's keys that still work, oldest first. */
  async activeKeys(accountId: string): Promise<KeySummary[]> {
    const rows = await this.keys.find({ where: { accountId, revokedAt: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toKeySummary);
  }

  /** Revokes one of the account's own working keys; another account's key, or one already revoked, is a 404. */
  async revokeAccountKey(accountId: string, keyId: string): Promise<KeySummary> {
    const row = await this.keys.findOneBy({ id: keyId, accountId, revokedAt: IsNull() });
    if (!row) throw notFound('API key');
    return this.revokeKey(row.id);
  }

  async rename(accountId: string, name: string): Promise<AccountSummary> {
    await this.requireAccount(accountId);
    await this.accounts.update({ id: accountId }, { name });
    // Keys of the account that authenticated in this process carry its old name; other processes' in ≤ the cache's TTL.
    this.callers.forgetAccount(accountId);
    return { id: accountId, name };
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
  async ensureKey(apiKey: string, accountName = 'bootstrap'): Promise<{ account: AccountSummary; created: boolean; revoked: boolean }> {
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
    const row = await liveKeyByHash(this.keys, keyHash);
    if (!row) return null;
    await this.noteUse(row.keyId, row.lastUsedAt);
    return { account: { id: row.accountId, name: row.accountName }, keyId: row.keyId };
  }

  /** Runs when a key is looked up (not on the requests the caller cache answers), so lastUsedAt lags by ≤ a minute. */
  private async noteUse(keyId: string, lastUsedAt: string | null): Promise<void> {
    const now = Date.now();
    if (lastUsedAt !== null && now - Date.parse(lastUsedAt) < KEY_USE_RESOLUTION_MS) return;
    await this.keys.update({ id: keyId }, { lastUsedAt: new Date(now) });
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
    name: null,
    lastUsedAt: null,
  });
}

const toKeySummary = (row: ApiKey): KeySummary => ({
  id: row.id,
  accountId: row.accountId,
  prefix: row.keyPrefix,
  name: row.name ?? null,
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
  lastUsedAt: row.lastUsedAt ?? null,
});
