import { uploadsDatabase } from '../../offline/queues/uploads/db';
import { readUploadSettings } from '../../offline/queues/uploads/rules';
import { rememberUploadSettings } from '../../offline/queues/uploads/shared-files';

// Apart from installed-app.ts: every page remembers the settings, a guest's too, and this needs IndexedDB
// (Dexie) alone, not the upload queue's client and the launch handling (~75 KB more to evaluate, a task
// of ~100 ms on a slowed phone CPU after a public page's hydration).

/** The worker queues shared files without a page: it follows the settings the site last gave. */
export function rememberSettings(uploads: Record<string, unknown>): Promise<void> {
  return rememberUploadSettings(uploadsDatabase(), readUploadSettings(uploads));
}
