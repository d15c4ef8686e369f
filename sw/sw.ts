/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { sharedSession } from '../src/offline/queues/session';
import { QueueHost } from './queues/host';
import { registerPushHandlers } from './notifications/push';
import { registerUploadQueue } from './uploads/worker';
import { registerSaveQueue } from './saves/worker';
import { registerPins } from './pins/worker';
import { registerShareTarget } from './share-target';
import { startWorkerErrorReporting } from './observability';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

// First, so that an error in what follows is reported when the site has a DSN.
startWorkerErrorReporting(self);

// The app shell (index.html, JS, CSS, icons) is precached at install, so a
// reload without network still opens the app instead of the browser's error.
// The manifest is left out: the server builds it from the site's branding, and a
// precached copy would keep the build's generic name and colours forever.
const MANIFEST = 'manifest.webmanifest';
precacheAndRoute(self.__WB_MANIFEST.filter((entry) => (typeof entry === 'string' ? entry : entry.url) !== MANIFEST));
cleanupOutdatedCaches();
registerRoute(({ url }) => url.pathname === `/${MANIFEST}`, new NetworkFirst({ cacheName: 'manifest' }));

// Every in-app navigation is answered with the cached index.html; server
// paths (API, auth, secure, API docs) always go to the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/auth(\/|$)/, /^\/secure(\/|$)/, /^\/api-docs(\/|$)/],
  }),
);

// Files shared from other apps into the installed app go to the upload queue.
registerShareTarget(self);

// The page asks before swapping versions (update prompt): wait for its word.
self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING') {
    void self.skipWaiting();
  }
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// Offline work lives here so it outlives tabs (DESIGN §2): one host owns the
// worker's message, sync and online events and the session; each queue
// registers on it (see queues/host.ts).
const session = sharedSession();
const host = new QueueHost(self, session);
registerUploadQueue(host, self);
registerSaveQueue(host, self);
registerPins(host, self);
host.start();

// Web push for the browser notification channel.
registerPushHandlers(self, session);
