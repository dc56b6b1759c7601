import type { Repository } from 'typeorm';
import type { SetPasswordToken } from '../entities/index.js';

/** Marks the link used unless it already is; true for the one caller whose update did it (single use under races). */
export async function markLinkUsed(links: Repository<SetPasswordToken>, tokenHash: string): Promise<boolean> {
  const claimed = await links
    .createQueryBuilder()
    .update()
    .set({ usedAt: new Date() })
    .where('token_hash = :hash AND used_at IS NULL', { hash: tokenHash })
    .execute();
  return claimed.affected !== 0;
}
