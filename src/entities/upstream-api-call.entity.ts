import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from './columns.js';

/**
 * Requests sent to the upstream in one UTC month by one upstream user, to one base, for one purpose (CONTRACT §10).
 * Every process adds its own counts (`calls = calls + excluded.calls`), so rows sum over replicas.
 */
@Entity('upstream_api_call')
export class UpstreamApiCall {
  /** YYYY-MM, UTC. */
  @PrimaryColumn({ type: 'varchar', length: 7 })
  month: string;

  /** The upstream user id, or `token:<fingerprint>` for the deployment's own token. */
  @PrimaryColumn({ name: 'user_key', type: 'varchar', length: 40 })
  userKey: string;

  /** Empty for requests outside a base (bases listing, whoami). */
  @PrimaryColumn({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  /** count | audit | webhooks | helpers. */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  purpose: string;

  @Column(bigintColumn('calls'))
  calls: number;
}
