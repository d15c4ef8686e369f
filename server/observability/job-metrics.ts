import type { JobObserver } from '../lib/background.js';
import type { Metrics } from './metrics.js';

/** Jobs whose success is a delivery to a person: their outcomes are the mail and push figures. */
const DELIVERIES: Record<string, string> = { mail: 'mail', push: 'push' };

/** Times every try and counts its outcome; a job out of tries is a server error and, for mail and push, a failed delivery. */
export function jobMetrics(metrics: Metrics): JobObserver {
  return {
    async run(job, work) {
      const stop = metrics.jobDuration.startTimer({ job: job.name });
      const channel = DELIVERIES[job.name];
      try {
        await work();
        metrics.jobRuns.inc({ job: job.name, outcome: 'ok' });
        if (channel) metrics.deliveries.inc({ channel, outcome: 'sent' });
      } catch (error) {
        const final = job.attempt >= job.attempts;
        metrics.jobRuns.inc({ job: job.name, outcome: final ? 'failed' : 'retry' });
        if (final) {
          metrics.serverError('job');
          if (channel) metrics.deliveries.inc({ channel, outcome: 'failed' });
        }
        throw error;
      } finally {
        stop();
      }
    },
  };
}

/** Several observers over one try, outermost first (metrics, error reports, traces). */
export function chainObservers(observers: JobObserver[]): JobObserver | null {
  if (!observers.length) return null;
  return {
    run: (job, work) => observers.reduceRight<() => Promise<void>>((inner, observer) => () => observer.run(job, inner), work)(),
  };
}
