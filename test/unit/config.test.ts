import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_SANDBOX_TOKEN, loadConfig } from '../../src/config.js';

describe(loadConfig.name, () => {
  it('runs with no environment at all: SQLite under data/, the sandbox as upstream', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ type: 'sqlite', path: 'data/basewatch.sqlite' });
    expect(config.dataDir).toBe('data');
    expect(config.upstream).toMatchObject({ mode: 'sandbox', token: DEFAULT_SANDBOX_TOKEN, requestsPerSecond: 5 });
    expect(config.upstream.apiUrl).toBeUndefined();
    expect(config.webhookAllowedHosts).toEqual([]);
  });

  it('uses the real upstream with an OAuth integration alone, where every account needs its own connection', () => {
    const config = loadConfig({ AIRTABLE_OAUTH_CLIENT_ID: 'client-1' });
    expect(config.upstream).toMatchObject({ mode: 'airtable', apiUrl: 'https://api.airtable.com' });
    expect(config.upstream.token).toBeUndefined();
    expect(config.sharedToken).toBe(false);
    expect(config.oauth).toEqual({ clientId: 'client-1', clientSecret: undefined, url: 'https://airtable.com' });
    expect(loadConfig({ AIRTABLE_TOKEN: 'pat1', AIRTABLE_SHARED_TOKEN: 'false' }).sharedToken).toBe(false);
    expect(loadConfig({ AIRTABLE_TOKEN: 'pat1' }).sharedToken).toBe(true);
    expect(loadConfig({}).oauth).toEqual({ clientId: 'basewatch-sandbox', clientSecret: undefined });
  });

  it('listens on loopback only in sandbox mode, on every interface with a real upstream, and as HOST says', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ AIRTABLE_TOKEN: 'pat123' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('uses the real upstream when AIRTABLE_TOKEN is set', () => {
    const config = loadConfig({ AIRTABLE_TOKEN: 'pat123', AIRTABLE_API_URL: 'https://api.airtable.com/' });
    expect(config.upstream).toMatchObject({ mode: 'airtable', token: 'pat123', apiUrl: 'https://api.airtable.com' });
  });

  it('reports every invalid variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        BOOTSTRAP_API_KEY: 'nope',
        PUBLIC_URL: 'ftp://x',
        MONGODB_URL: 'http://x',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems.sort()).toEqual(['BOOTSTRAP_API_KEY', 'DATABASE_URL', 'LOG_LEVEL', 'MONGODB_URL', 'PORT', 'PUBLIC_URL']);
  });

  it('parses the allow-list and postgres URLs', () => {
    const config = loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' Example.com, localhost:8080 ,', DATABASE_URL: 'postgres://u@h/db' });
    expect(config.webhookAllowedHosts).toEqual(['example.com', 'localhost:8080']);
    expect(config.database).toEqual({ type: 'postgres', url: 'postgres://u@h/db' });
  });
});

describe('loadConfig edge cases', () => {
  it('rejects blank-looking numbers, short secret keys and malformed hosts', () => {
    let problems: string[] = [];
    try {
      loadConfig({ PORT: ' ', SECRET_KEY: 'a'.repeat(40), HOST: 'bad host', WEBHOOK_ALLOWED_HOSTS: 'ok.example, not a host' });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['HOST', 'PORT', 'SECRET_KEY', 'WEBHOOK_ALLOWED_HOSTS']);
  });

  it('refuses upstream tokens that could never be sent as a bearer token (a pasted newline, a space, a non-ASCII character)', () => {
    for (const token of ['patAbcdef.123\n', 'pat Abcdefgh', 'patAbcdef✓']) {
      for (const name of ['AIRTABLE_TOKEN', 'SANDBOX_TOKEN']) {
        let problems: string[] = [];
        try {
          loadConfig({ [name]: token });
        } catch (e) {
          problems = (e as ConfigError).problems;
        }
        expect(problems, `${name}=${JSON.stringify(token)}`).toEqual([
          expect.stringMatching(new RegExp(`^${name}: must be a bearer token`)),
        ]);
      }
    }
  });

  it('accepts a 32-byte base64url secret key', () => {
    const key = Buffer.alloc(32, 7).toString('base64url');
    expect(loadConfig({ SECRET_KEY: key }).secretKey).toBe(key);
  });
});
