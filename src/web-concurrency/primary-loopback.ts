import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';
import type { Config } from '../config.js';
import { createEmbeddedSandbox } from '../embedded-sandbox.js';
import type { Logger } from '../logger.js';
import { createMetricsRouter } from '../metrics/metrics.routes.js';

export interface PrimaryLoopback {
  url: string;
  close(): Promise<void>;
}

/**
 * The primary's loopback port, for its workers: the built-in sandbox in sandbox mode (one store, state file and set
 * of platform limits behind every worker) at /sandbox/airtable, and with ADMIN_TOKEN /metrics summed over the
 * workers by prom-client's AggregatorRegistry (counters and histograms added, each gauge by its `aggregator`).
 */
export async function servePrimaryLoopback(config: Config, publicUrl: string, logger: Logger): Promise<PrimaryLoopback> {
  const app = express().disable('x-powered-by');
  const sandbox = config.upstream.mode === 'sandbox' ? createEmbeddedSandbox(config, publicUrl, logger) : undefined;
  if (sandbox) app.use('/sandbox/airtable', sandbox.router);
  if (config.adminToken) {
    const workers = new AggregatorRegistry<PrometheusContentType>();
    app.use(createMetricsRouter(config.adminToken, workers, () => workers.clusterMetrics()));
  }
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Writes the sandbox's state file when changes are pending.
      sandbox?.close();
    },
  };
}
