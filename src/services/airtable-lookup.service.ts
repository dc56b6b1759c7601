import { notFound } from '../errors.js';
import { UpstreamRequestError } from '../upstream/upstream-error.js';
import type { UpstreamBase, UpstreamTable } from '../upstream/types.js';
import type { UpstreamAccess } from './connections/upstream-access.js';

/** Id look-ups in the caller's connected upstream account: only what that connection sees. */
export class AirtableLookupService {
  constructor(private readonly access: UpstreamAccess) {}

  async listBases(accountId: string): Promise<UpstreamBase[]> {
    return (await this.access.forAccount(accountId)).listBases();
  }

  /** The deployment's shared connection (whose it is) when it acts for the account; null when the account has its own. */
  sharedConnection(accountId: string): Promise<{ upstreamUserId: string; email: string | null } | null> {
    return this.access.sharedConnectionFor(accountId);
  }

  /** Which of the bases the account's connection no longer sees (its list of bases, kept a minute). */
  lostBases(accountId: string, baseIds: Iterable<string>): Promise<Set<string>> {
    return this.access.lostBases(accountId, baseIds);
  }

  /** The base's tables; a base the connection does not know (or may not see) is a 404, as another account's is. */
  async listTables(accountId: string, baseId: string): Promise<UpstreamTable[]> {
    const upstream = await this.access.forAccount(accountId);
    try {
      return await upstream.getBaseSchema(baseId);
    } catch (error) {
      const status = error instanceof UpstreamRequestError ? error.upstreamStatus : undefined;
      if (status === 403 || status === 404) throw notFound('Upstream base');
      throw error;
    }
  }
}
