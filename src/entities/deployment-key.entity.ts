import { Column, Entity, PrimaryColumn } from 'typeorm';
import { timestampColumn } from './columns.js';

/** A key the whole deployment shares, recorded by its fingerprint (never the key itself) by the first process. */
@Entity('deployment_key')
export class DeploymentKey {
  /** The variable that holds the key: SECRET_KEY. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name: string;

  /** Hex HMAC-SHA256 under the key (key-fingerprint.ts). */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column(timestampColumn('recorded_at'))
  recordedAt: Date;
}
