/// <reference lib="webworker" />
import { registerRoute } from 'workbox-routing';
import { formatBytes } from '../src/i18n/format-size';
import { uploadsDatabase } from '../src/offline/queues/uploads/db';
import { queueSharedFiles, SHARE_TARGET_PATH, SHARED_LANDING, SHARED_PARAM } from '../src/offline/queues/uploads/shared-files';

/**
 * The manifest's share_target: a share sheet POSTs the files here. The worker
 * answers it itself, online or not (the server has no such address): the
 * files go into the upload queue's database and the browser is sent on to
 * the drive (303, so a reload does not post them again), where the page
 * claims them for the signed-in user and the upload panel shows them.
 */
export function registerShareTarget(scope: ServiceWorkerGlobalScope): void {
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && url.pathname === SHARE_TARGET_PATH,
    async ({ request }) => {
      const landing = new URL(SHARED_LANDING, scope.location.origin);
      try {
        const form = await request.formData();
        const files = form.getAll('files').filter((value): value is File => typeof value !== 'string');
        const items = await queueSharedFiles(uploadsDatabase(), files, { formatSize: formatBytes });
        landing.searchParams.set(SHARED_PARAM, String(items.length));
      } catch {
        // An unreadable body or a full device: the drive opens and says nothing arrived.
        landing.searchParams.set(SHARED_PARAM, '0');
      }
      return Response.redirect(landing.toString(), 303);
    },
    'POST',
  );
}
