import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('webhook configuration', () => {
  it('defaults to a retry schedule of about a day, a 15 s timeout, 5 s coalescing and 5 days before deactivation', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks.retryScheduleMs).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(webhooks.retryScheduleMs.reduce((a, b) => a + b)).toBeGreaterThan(86_400_000);
    expect(webhooks).toMatchObject({ timeoutMs: 15_000, coalesceWindowMs: 5_000, coalesceMaxWaitMs: 30_000, disableAfterMs: 432_000_000 });
  });

  it('reads durations with units', () => {
    const { webhooks } = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '250ms, 2s,1m', WEBHOOK_TIMEOUT: '1h', WEBHOOK_DISABLE_AFTER: '2d' });
    expect(webhooks).toMatchObject({ retryScheduleMs: [250, 2_000, 60_000], timeoutMs: 3_600_000, disableAfterMs: 172_800_000 });
  });

  it('refuses malformed durations, naming each variable', () => {
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon', WEBHOOK_TIMEOUT: '15', WEBHOOK_COALESCE_WINDOW: '1s,2s' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'WEBHOOK_COALESCE_WINDOW',
      'WEBHOOK_RETRY_SCHEDULE',
      'WEBHOOK_TIMEOUT',
    ]);
  });
});
