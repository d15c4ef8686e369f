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
  /** Sessions, tokens, expired uploads and the store's leftovers (housekeeping.ts), hourly. */
  housekeeping: Record<string, never>;
  /** Versions thinned and trash past its purge time deleted forever (drive/retention-pass.ts), every 15 minutes. */
  retention: Record<string, never>;
};

export type DriveJobQueue = JobQueue<DriveJobs>;
