import { createHmac } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { recordFingerprintOnce } from './repositories/deployment-key.repository.js';

/** A name for a key that tells keys apart without revealing them. */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('basewatch key fingerprint').digest('hex');
}

export class KeyMismatchError extends Error {
  constructor() {
    super(
      'SECRET_KEY does not match the key that sealed the secrets in this database (the database records its ' +
        'fingerprint). Every process of a deployment needs the same SECRET_KEY: set the one its first process used ' +
        '(when it was unset, the one generated into that process’s data folder, secret.key). See README, "Running ' +
        'several replicas".',
    );
    this.name = 'KeyMismatchError';
  }
}

/**
 * One deployment, one key: the first process records its key's fingerprint, and a process with another key is
 * refused before it seals a secret the others cannot open (or fails to open theirs). A database from before
 * fingerprints were recorded takes the key of its first start with this check as its key.
 */
export async function checkKeyFingerprint(dataSource: DataSource, key: Buffer): Promise<void> {
  const fingerprint = keyFingerprint(key);
  if ((await recordFingerprintOnce(dataSource, 'SECRET_KEY', fingerprint)) !== fingerprint) throw new KeyMismatchError();
}
