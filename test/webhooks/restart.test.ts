import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/server.js';
import { createHttp } from '../support/http.js';
import { Receiver } from './support/receiver.js';
import { verifyStandardWebhook } from './support/standard-webhooks.js';
import { change, createWebhook, deliveryEnv, demoTable, feed, recordId } from './support/webhook-support.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-webhook-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The service on one database file (and so one generated SECRET_KEY), as a process would be started again. */
async function start(env: Record<string, string>) {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return startServer(config, createLogger('silent'));
}

describe('deliveries across a restart', () => {
  it('are sent by the next process: the pending rows are the truth', async () => {
    const receiver = await new Receiver().start();
    // A process that plans but does not run jobs: deliveries are committed and nothing sends them.
    const first = await start(deliveryEnv(receiver.port, { SCHEDULER_RUN_JOBS: 'false' }));
    const { account, apiKey } = await first.services.accounts.create('restart');
    const http = createHttp(first.url, apiKey);
    const table = await demoTable(http);
    const { webhook, secret } = await createWebhook(http, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/after-restart'),
    });
    const records = [recordId(), recordId(), recordId()];
    await feed(
      { running: first },
      account.id,
      table.baseId,
      records.map((r) => change('record_create', { tableId: table.tableId, recordId: r })),
    );
    await first.close();
    expect(receiver.at('/after-restart')).toHaveLength(0);

    const second = await start(deliveryEnv(receiver.port));
    try {
      const requests = await receiver.waitFor('/after-restart', 3);
      expect(requests.map((r) => r.json.data.recordId).sort()).toEqual([...records].sort());
      expect(requests.every((r) => r.json.data.webhookId === webhook.webhookId)).toBe(true);
      // The signing secret, sealed at rest, opens the same after the restart.
      expect(requests.every((r) => verifyStandardWebhook(secret, r.headers, r.body))).toBe(true);
    } finally {
      await second.close();
      await receiver.stop();
    }
  });
});
