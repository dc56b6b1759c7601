import { notFound } from '../errors.js';
import type { UpstreamClient } from '../upstream/client.js';
import { UpstreamRequestError } from '../upstream/upstream-error.js';
import type { UpstreamBase, UpstreamTable } from '../upstream/types.js';

/**
 * Id look-ups in the connected upstream account. One upstream connection serves the whole deployment
 * (AIRTABLE_TOKEN, or the sandbox), so every account sees the same upstream bases.
 */
export class AirtableLookupService {
  constructor(private readonly upstream: UpstreamClient) {}

  async listBases(): Promise<UpstreamBase[]> {
    return this.upstream.listBases();
  }

  /** The base's tables; a base the upstream does not know (or will not show) is a 404. */
  async listTables(baseId: string): Promise<UpstreamTable[]> {
    try {
      return await this.upstream.getBaseSchema(baseId);
    } catch (error) {
      const status = error instanceof UpstreamRequestError ? error.upstreamStatus : undefined;
      if (status === 403 || status === 404) throw notFound('Upstream base');
      throw error;
    }
  }
}
