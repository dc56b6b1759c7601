import { loadConfig, type Config } from '../../src/config.js';

/**
 * A bench's service configuration: an ephemeral loopback port, the given SQLite file, no logs (BENCH_LOG_LEVEL=info
 * for some), and the sandbox kept in memory (a state file would only add saves of large seeded bases to what is
 * measured). `env` adds or overrides.
 */
export function benchConfig(databasePath: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${databasePath}`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    SANDBOX_STATE_FILE: 'off',
    ...env,
  });
}
