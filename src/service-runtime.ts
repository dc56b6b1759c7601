import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import { createEmbeddedSandbox } from './embedded-sandbox.js';
import { upstreamNotConnected } from './errors.js';
import { OAUTH_CALLBACK_PATH } from './http/oauth-callback-path.js';
import { safeError, type Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics/registry.js';
import type { Sandbox } from './sandbox/index.js';
import { openServiceDatabase } from './service-database.js';
import { createServices, type Services } from './services.js';
import { ApiCallLedgerService } from './services/usage-insight/api-call-ledger.service.js';
import { openSharedState, type SharedState } from './shared-state.js';
import { UpstreamClient } from './upstream/client.js';
import { OAuthClient } from './upstream/oauth-client.js';
import type { TokenSource } from './upstream/types.js';

/** Everything behind the transports: the database, the shared state, the upstream clients and the services. */
export interface ServiceRuntime {
  dataSource: DataSource;
  services: Services;
  /** The built-in sandbox of sandbox mode, unless it lives in the primary (WEB_CONCURRENCY) or the upstream is real. */
  sandbox?: Sandbox;
  /** Where this process's clients reach the built-in sandbox's API (a loopback listener of its own). */
  sandboxUrl?: string;
  /** Under WEB_CONCURRENCY > 1 in sandbox mode, the primary's sandbox, which the public app forwards to. */
  remoteSandbox?: string;
  shared: SharedState;
  metrics: Metrics;
  /** Stores this process's API-call counts, closes the sandbox, the database and the shared state. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** The service's own address (public URL unset: where the upstream's pings and OAuth redirects land); none: no transport. */
  url?: string;
  /** Under WEB_CONCURRENCY > 1, the primary's loopback address: the built-in sandbox lives there. */
  primaryUrl?: string;
}

export async function openServiceRuntime(config: Config, logger: Logger, options: RuntimeOptions = {}): Promise<ServiceRuntime> {
  const { url, primaryUrl } = options;
  let dataSource: DataSource | undefined;
  let shared: SharedState | undefined;
  let sandbox: Sandbox | undefined;
  let internalSandbox: InternalSandbox | undefined;
  let ledger: ApiCallLedgerService | undefined;
  try {
    const opened = await openServiceDatabase(config, logger);
    dataSource = opened.dataSource;
    shared = await openSharedState(config, logger);
    const remoteSandbox = primaryUrl && config.upstream.mode === 'sandbox' ? `${primaryUrl}/sandbox/airtable` : undefined;
    const metrics = createMetrics(dataSource);
    const publicUrl = config.publicUrl ?? url;
    sandbox =
      config.upstream.mode === 'sandbox' && !remoteSandbox
        ? createEmbeddedSandbox(config, publicUrl ?? 'http://127.0.0.1', logger)
        : undefined;
    internalSandbox = sandbox ? await serveSandboxInternally(sandbox) : undefined;
    const sandboxApi = internalSandbox ? `${internalSandbox.url}/sandbox/airtable` : undefined;
    ledger = new ApiCallLedgerService(dataSource, { logger });
    const { upstreamLimiter } = shared;
    const record = ledger.record;
    const clientForToken = (token: string | TokenSource) =>
      new UpstreamClient({
        baseUrl: config.upstream.apiUrl ?? remoteSandbox ?? sandboxApi!,
        token,
        requestsPerSecond: config.upstream.requestsPerSecond,
        timeoutMs: config.upstream.timeoutMs,
        maxRetries: config.upstream.maxRetries,
        lockoutMs: config.upstream.lockoutMs,
        retryBaseDelayMs: config.upstream.retryBaseDelayMs,
        limiter: upstreamLimiter,
        logger,
        onAttempt: metrics.upstreamAttempted,
        onRequestSent: record,
      });
    // Without a deployment token the shared client only ever says so: accounts work through their own connections.
    const upstream = clientForToken(config.upstream.token ?? { userKey: 'none', current: () => Promise.reject(upstreamNotConnected()) });
    const oauthUrl = config.oauth.url ?? (publicUrl && (sandbox || remoteSandbox) ? `${publicUrl}/sandbox/airtable` : undefined);
    const services = createServices(dataSource, upstream, config, {
      secretKey: opened.secretKey,
      logger,
      clientForToken,
      oauth:
        config.oauth.clientId && oauthUrl
          ? new OAuthClient({ url: oauthUrl, clientId: config.oauth.clientId, clientSecret: config.oauth.clientSecret })
          : undefined,
      oauthRedirectUri: `${publicUrl ?? ''}${OAUTH_CALLBACK_PATH}`,
      apiCallLedger: ledger,
      // Without PUBLIC_URL a real upstream cannot reach a loopback address: watch by polling alone.
      notificationUrl:
        publicUrl && (config.publicUrl || config.upstream.mode === 'sandbox') ? `${publicUrl}/upstream/notifications` : undefined,
    });
    services.webhookDispatcher.onAttempted(metrics.webhookAttempted);
    const db = dataSource;
    const state = shared;
    const builtSandbox = sandbox;
    const sandboxListener = internalSandbox;
    const ledgerToClose = ledger;
    return {
      dataSource,
      services,
      sandbox,
      sandboxUrl: sandboxApi,
      remoteSandbox,
      shared,
      metrics,
      close: async () => {
        // After the last request could be sent: this process's counts are added to the shared table.
        await ledgerToClose
          .close()
          .catch((error: unknown) => logger.warn({ err: safeError(error) }, 'API-call ledger not stored at shutdown'));
        builtSandbox?.close();
        await sandboxListener?.close();
        await db.destroy();
        await state.close();
      },
    };
  } catch (error) {
    await ledger?.close().catch(() => undefined);
    sandbox?.close();
    await internalSandbox?.close();
    await dataSource?.destroy().catch(() => undefined);
    await shared?.close().catch(() => undefined);
    throw error;
  }
}

interface InternalSandbox {
  url: string;
  close(): Promise<void>;
}

/**
 * The upstream client reaches the sandbox through a loopback listener of its own, so that a shutdown, which stops
 * the public listener at once, does not cut off the counts it lets finish. The same sandbox (state, faults) is
 * mounted on the public app at /sandbox/airtable.
 */
async function serveSandboxInternally(sandbox: Sandbox): Promise<InternalSandbox> {
  const server = createServer(express().use('/sandbox/airtable', sandbox.router));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
