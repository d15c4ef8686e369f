import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { SettingsService } from '../settings/service.js';
import { displayName } from '../users/presenter.js';
import type { UsersRepository } from '../users/repository.js';
import type { ActivityRecorder } from './recorder.js';
import { ActivityRepository } from './repository.js';
import { activityRoutes } from './routes.js';
import { ActivityService } from './service.js';

export type { ActivityRecorder } from './recorder.js';

export interface ActivityModuleDeps {
  db: Kysely<Database>;
  users: Pick<UsersRepository, 'findById'>;
  settings: Pick<SettingsService, 'get'>;
}

const KEEP_DAYS = 365;

/** Activity (issue 35): the recorder other modules are handed, the reads, and the scheduler's prune. */
export function createActivity(deps: ActivityModuleDeps) {
  const repo = new ActivityRepository(deps.db);
  const recorder: ActivityRecorder = { record: (event, db) => repo.insert(event, db) };
  const activity = new ActivityService(deps.db, repo, {
    userName: async (id) => {
      const user = await deps.users.findById(id);
      return user ? displayName(user) : null;
    },
    keepDays: async () => {
      const value = await deps.settings.get('activity.keep_days');
      return typeof value === 'number' && value > 0 ? value : KEEP_DAYS;
    },
  });
  return { recorder, activity, repo, routes: moduleRoutes(API_PREFIX, activityRoutes, { activity }) };
}
