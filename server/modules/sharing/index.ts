import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { consume, type RateLimiter } from '../../lib/rate-limiter.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import { fileEntryShared } from '../notifications/file-shared.js';
import type { Notifier } from '../notifications/notifier.js';
import { displayName } from '../users/presenter.js';
import type { ActivityRecorder } from '../activity/recorder.js';
import type { UsersRepository } from '../users/repository.js';
import { SharesRepository } from './repository.js';
import { sharingRoutes } from './routes.js';
import { SharingService } from './service.js';

const HOUR_MS = 60 * 60 * 1000;
/** People a user may notify by sharing in an hour: generous for teams, useless for spam. */
export const SHARE_RECIPIENTS_PER_HOUR = 200;

/** How a sharer is named in the notification: their display name, or "Someone" once the account is gone. */
export const sharerName =
  (users: Pick<UsersRepository, 'findById'>) =>
  async (userId: number): Promise<string> => {
    const user = await users.findById(userId);
    return user ? displayName(user) : 'Someone';
  };

/** Sharing entries with people, who are notified (counted per sharer and hour). */
export function createSharing(deps: {
  db: Kysely<Database>;
  users: Pick<UsersRepository, 'findById' | 'findByEmail'>;
  notifier: Notifier;
  rateLimiter: RateLimiter;
  activity: ActivityRecorder;
}) {
  const sharing = new SharingService(deps.db, new SharesRepository(deps.db), {
    findUserByEmail: (email) => deps.users.findByEmail(email),
    sharerName: sharerName(deps.users),
    notifyShared: (notice) => fileEntryShared(deps.notifier, notice),
    activity: deps.activity,
    countRecipients: (userId, people) => consume(deps.rateLimiter, { key: `shares:${userId}`, max: SHARE_RECIPIENTS_PER_HOUR, windowMs: HOUR_MS }, people),
  });
  return { sharing, routes: moduleRoutes(API_PREFIX, sharingRoutes, { sharing }) };
}
