import { AggregatorRegistry, type Registry } from 'prom-client';

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
import type { PrimaryChannel, WorkerChannel } from './ipc.js';

const CLUSTER = 'metrics.cluster';
const OWN = 'metrics.own';
/** A worker that does not answer within this is left out of a scrape rather than holding it up. */
const WORKER_TIMEOUT_MS = 2_000;

/**
 * The primary sums its own metrics and every worker's, as prom-client's AggregatorRegistry does (counters and
 * histograms summed, each gauge by its `aggregator`), for whichever worker was asked for /metrics.
 */
export function serveClusterMetrics(channel: PrimaryChannel, own: Registry): void {
  channel.answer(CLUSTER, async () => {
    const workers = (await channel.askAll(OWN, WORKER_TIMEOUT_MS)) as MetricsJson[];
    return AggregatorRegistry.aggregate([await own.getMetricsAsJSON(), ...workers]).metrics();
  });
}

/** A worker's /metrics: the cluster's, through the primary; it answers for its own registry when asked. */
export function clusterMetricsOfWorker(channel: WorkerChannel, own: Registry): () => Promise<string> {
  channel.answer(OWN, () => own.getMetricsAsJSON());
  return () => channel.ask<string>(CLUSTER, null);
}
