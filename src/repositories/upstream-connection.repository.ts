import { IsNull, LessThan, type Repository } from 'typeorm';
import { UpstreamConnection } from '../entities/index.js';

/**
 * Sets `refreshingUntil` on the active OAuth connection of `row`'s version if no unexpired claim is on it; true when
 * this update took the claim.
 */
export async function claimRefresh(
  connections: Repository<UpstreamConnection>,
  row: Pick<UpstreamConnection, 'accountId' | 'tokenVersion'>,
  now: Date,
  until: Date,
): Promise<boolean> {
  const result = await connections
    .createQueryBuilder()
    .update(UpstreamConnection)
    .set({ refreshingUntil: until })
    .where({ accountId: row.accountId, tokenVersion: row.tokenVersion, status: 'active', kind: 'oauth' })
    .andWhere([{ refreshingUntil: IsNull() }, { refreshingUntil: LessThan(now) }])
    .execute();
  return result.affected === 1;
}
