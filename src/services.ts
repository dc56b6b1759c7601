import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import { AccountService } from './services/account.service.js';
import { AirtableLookupService } from './services/airtable-lookup.service.js';
import { SnapshotService } from './services/snapshot.service.js';
import { UsageBaseService } from './services/usage-base.service.js';
import { UsageCountService } from './services/usage-count.service.js';
import { UsageScheduleService } from './services/usage-schedule.service.js';
import type { UpstreamClient } from './upstream/client.js';

export interface Services {
  dataSource: DataSource;
  upstream: UpstreamClient;
  accounts: AccountService;
  usageBases: UsageBaseService;
  snapshots: SnapshotService;
  usageCounts: UsageCountService;
  usageSchedule: UsageScheduleService;
  airtableLookup: AirtableLookupService;
}

/** The composition root: every service, built with `new`. */
export function createServices(dataSource: DataSource, upstream: UpstreamClient, config: Config): Services {
  const accounts = new AccountService(dataSource);
  const usageBases = new UsageBaseService(dataSource, upstream);
  const snapshots = new SnapshotService(dataSource, usageBases);
  const usageCounts = new UsageCountService(dataSource, usageBases, snapshots, upstream, {
    lockTtlMs: config.countLockTtlMs,
  });
  const usageSchedule = new UsageScheduleService(dataSource, usageBases, usageCounts, {
    spreadMs: config.jobs.usageSpreadMs,
    staleRunMs: config.jobs.lockLifetimeMs,
  });
  const airtableLookup = new AirtableLookupService(upstream);
  return { dataSource, upstream, accounts, usageBases, snapshots, usageCounts, usageSchedule, airtableLookup };
}
