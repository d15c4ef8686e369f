import type { JobQueue } from '../lib/background.js';
import type { MailMessage } from '../mail/mailer.js';
import type { PushJob } from '../modules/notifications/notifier.js';

/** Every background job of the app by name, with its data (JSON; see lib/background.ts). */
export type DriveJobs = {
  /** A finished message to send (notification, account and workspace invite emails). */
  mail: MailMessage;
  /** A notification's web push to its recipient's browsers. */
  push: PushJob;
  /** A new file's thumbnail. */
  thumbnail: { entryId: number };
  /** A file's text read again for content search after its bytes changed (modules/search). */
  'extract-text': { entryId: number };
  /** Sessions, tokens, expired uploads and the store's leftovers (housekeeping.ts), hourly. */
  housekeeping: Record<string, never>;
  /** Versions thinned and trash past its purge time deleted forever (drive/retention-pass.ts), every 15 minutes. */
  retention: Record<string, never>;
  /** Activity records older than the site's `activity.keep_days` deleted (activity/service.ts), daily. */
  'activity-prune': Record<string, never>;
};

export type DriveJobQueue = JobQueue<DriveJobs>;

/** What each job runs: every process defines every job, so any of them can run what another queued. */
export interface JobHandlers {
  send(message: MailMessage): Promise<void>;
  deliverPush(job: PushJob): Promise<void>;
  makeThumbnail(entryId: number): Promise<void>;
  /** Several files' text at once (the jobs queued while the last pass ran). */
  extractText(entryIds: number[]): Promise<void>;
  housekeeping(): Promise<void>;
  retention(): Promise<void>;
  pruneActivity(): Promise<void>;
}

export function defineJobs(jobs: DriveJobQueue, run: JobHandlers): void {
  jobs.define('mail', (message) => run.send(message));
  jobs.define('push', (job) => run.deliverPush(job));
  // One at a time per process: sharp is CPU- and memory-hungry, and uploads come in bursts.
  jobs.define('thumbnail', ({ entryId }) => run.makeThumbnail(entryId), { attempts: 1, concurrency: 1 });
  // One pass at a time too: a PDF's text is read on the event loop, page by page, within extract.ts's limits. A burst
  // of new files (a folder synced over WebDAV) is read in batches: one look-up of their rows, one transaction.
  jobs.defineBatch('extract-text', (items) => run.extractText(items.map((item) => item.entryId)), { attempts: 1, max: 100 });
  jobs.define('housekeeping', () => run.housekeeping(), { attempts: 1 });
  jobs.define('retention', () => run.retention(), { attempts: 1 });
  jobs.define('activity-prune', () => run.pruneActivity(), { attempts: 1 });
}
