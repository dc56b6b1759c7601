import type { Agenda } from 'agenda';
import type { Metrics } from './registry.js';

/**
 * Counts the job runs this process finished. With a backend that shares job events between processes, Agenda
 * re-emits other processes' outcomes with `remote` set: those are counted by the process that ran them.
 */
export function countJobRuns(agenda: Agenda, metrics: Metrics): void {
  agenda.on('success', (job: { attrs: { name: string } }, remote?: boolean) => {
    if (!remote) metrics.jobFinished(job.attrs.name, 'success');
  });
  agenda.on('fail', (_error: unknown, job: { attrs: { name: string } }, remote?: boolean) => {
    if (!remote) metrics.jobFinished(job.attrs.name, 'failure');
  });
}
