import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** seeding: a full read is under way; live: every change since the seed is in; gap: changes may have been missed. */
export type MirrorStatus = 'seeding' | 'live' | 'gap';

/** The mirror of one watched upstream base, shared by every account that watches it (CONTRACT §11). */
@Entity('mirror_base')
export class MirrorBase {
  @PrimaryColumn(idColumn())
  id: string;

  @Index('uq_mirror_base_base', { unique: true })
  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ type: 'varchar', length: 8 })
  status: MirrorStatus;

  /** Why the mirror is (or last was) in `gap`; null when it never was. */
  @Column({ name: 'gap_reason', type: 'varchar', length: 255, nullable: true })
  gapReason: string | null;

  /** The upstream webhook whose payloads the mirror follows; another one means changes may have been missed. */
  @Column({ name: 'webhook_id', type: 'varchar', length: 32, nullable: true })
  webhookId: string | null;

  /** Bumped by every seed: a seed run finding another number was overtaken and stops. */
  @Column({ type: 'integer' })
  generation: number;

  /** JSON MirrorSchema: tables with their fields (names, types), kept current from schema payloads. */
  @Column({ name: 'schema_json', type: 'text' })
  schemaJson: string;

  /** The first completed seed: point-in-time reads start here. */
  @Column(timestampColumn('seeded_at', true))
  seededAt: Date | null;

  /** The last completed seed: no change was missed since. */
  @Column(timestampColumn('continuous_since', true))
  continuousSince: Date | null;

  /** The last full upstream count compared with the mirror (counting from the mirror re-checks at least weekly). */
  @Column(timestampColumn('full_count_at', true))
  fullCountAt: Date | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
