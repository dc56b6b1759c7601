import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DeploymentKey } from '../../src/entities/index.js';
import { keyFingerprint } from '../../src/key-fingerprint.js';
import { createLogger } from '../../src/logger.js';
import { openServiceRuntime } from '../../src/service-runtime.js';
import { startTestServices } from '../support/test-services.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-key-'));
const DATABASE_URL = `sqlite:${join(dir, 'basewatch.sqlite')}`;
const FIRST_KEY = 'Zmlyc3Qta2V5LW9mLXRoaXMtZGVwbG95bWVudC0zMi1ieXRlcy1sb25n';
const SECOND_KEY = 'c2Vjb25kLWtleS1vZi10aGlzLWRlcGxveW1lbnQtMzItYnl0ZXMtbG9uZw';

/** The services opened on the one database as a process starts them (the key checked before anything else). */
const open = (env: Record<string, string>) =>
  openServiceRuntime(loadConfig({ DATABASE_URL, SANDBOX_STATE_FILE: 'off', LOG_LEVEL: 'silent', ...env }), createLogger('silent'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one deployment, one key', () => {
  it('records the first key’s fingerprint, never the key', async () => {
    const t = await startTestServices({ DATABASE_URL, SECRET_KEY: FIRST_KEY });
    const rows = await t.dataSource.getRepository(DeploymentKey).find();
    expect(rows.map((row) => [row.name, row.fingerprint])).toEqual([
      ['SECRET_KEY', keyFingerprint(Buffer.from(FIRST_KEY, 'base64url').subarray(0, 32))],
    ]);
    expect(rows[0]!.fingerprint).not.toContain(FIRST_KEY);
    await t.close();
  });

  it('refuses a process with another SECRET_KEY, or with one generated into its data folder, naming SECRET_KEY', async () => {
    await expect(open({ SECRET_KEY: SECOND_KEY })).rejects.toThrow(/^SECRET_KEY does not match the key that sealed the secrets/);
    await expect(open({})).rejects.toThrow(/^SECRET_KEY does not match/);
    const again = await open({ SECRET_KEY: FIRST_KEY });
    await again.close();
  });

  it('takes the key of the first start on a database from before fingerprints were recorded', async () => {
    const t = await startTestServices({ DATABASE_URL, SECRET_KEY: FIRST_KEY });
    await t.dataSource.getRepository(DeploymentKey).clear();
    await t.close();
    const adopted = await open({ SECRET_KEY: SECOND_KEY });
    await adopted.close();
    await expect(open({ SECRET_KEY: FIRST_KEY })).rejects.toThrow(/^SECRET_KEY does not match/);
  });
});
