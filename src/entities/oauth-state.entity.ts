import { Column, Entity, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** A pending OAuth authorization: the state sent to the upstream, bound to the account, used once. */
@Entity('oauth_state')
export class OAuthState {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  state: string;

  @Column(idColumn('account_id'))
  accountId: string;

  /** The PKCE code verifier, sealed by SecretBox. */
  @Column({ name: 'code_verifier', type: 'text' })
  codeVerifier: string;

  @Column({ name: 'redirect_uri', type: 'varchar', length: 2048 })
  redirectUri: string;

  @Column(timestampColumn('expires_at'))
  expiresAt: Date;
}
