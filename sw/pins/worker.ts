/// <reference lib="webworker" />
import { createPinEngine } from '../../src/offline/pins/create-engine';
import { PINS_PERIODIC_TAG, pinsProtocol } from '../../src/offline/pins/protocol';
import { byteRouteOf, offlineResponse } from '../../src/offline/pins/serve';
import type { QueueHost } from '../queues/host';

/**
 * "Make available offline" in the worker: the sync engine on the queue host
 * (start-up, `online`, page kicks, Background Sync and, where granted,
 * Periodic Background Sync), and the answer to the app's byte addresses
 * from the device when the network cannot give them.
 */
export function registerPins(host: QueueHost, scope: ServiceWorkerGlobalScope): void {
  const channel = new BroadcastChannel(pinsProtocol.channel);
  const engine = createPinEngine(
    { fetch: (input, init) => scope.fetch(input, init), origin: scope.location.origin, getXsrfToken: () => host.session.xsrfToken() },
    scope.caches,
    (event) => channel.postMessage(event),
    host.session,
  );
  host.register({
    name: pinsProtocol.name,
    syncTag: pinsProtocol.syncTag,
    isCommand: pinsProtocol.isCommand,
    apply: (command) => engine.apply(command),
    run: () => engine.run(),
    hasWaiting: () => engine.hasWaiting(),
    periodic: { tag: PINS_PERIODIC_TAG, refresh: () => engine.refresh() },
  });

  scope.addEventListener('fetch', (event) => {
    const { request } = event;
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    if (url.origin !== scope.location.origin) return;
    const route = byteRouteOf(url);
    if (!route) return;
    event.respondWith(
      (async () => {
        const userId = await host.session.userId();
        const fromDevice = () => (userId ? offlineResponse(request, route, userId, scope.caches, scope.location.origin) : Promise.resolve(null));
        // Offline, the device answers at once; online, the server does (it has the newest version) unless it cannot be reached.
        if (!scope.navigator.onLine) {
          const stored = await fromDevice();
          if (stored) return stored;
        }
        try {
          const response = await scope.fetch(request);
          if (response.status < 500) return response;
          return (await fromDevice()) ?? response;
        } catch (error) {
          const stored = await fromDevice();
          if (stored) return stored;
          throw error;
        }
      })(),
    );
  });
}
