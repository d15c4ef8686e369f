/// <reference lib="webworker" />
import { createSaveEngine } from '../../src/offline/queues/saves/create-engine';
import { isSaveCommand, SAVES_CHANNEL, SAVES_SYNC_TAG } from '../../src/offline/queues/saves/protocol';
import type { QueueHost } from '../queues/host';

/** The document-save queue on the worker's queue host, beside the upload queue. */
export function registerSaveQueue(host: QueueHost, scope: ServiceWorkerGlobalScope): void {
  const channel = new BroadcastChannel(SAVES_CHANNEL);
  const engine = createSaveEngine(
    { fetch: (input, init) => scope.fetch(input, init), origin: scope.location.origin, getXsrfToken: () => host.session.xsrfToken() },
    (event) => channel.postMessage(event),
    host.session,
  );
  host.register({
    name: 'saves',
    syncTag: SAVES_SYNC_TAG,
    apply: (command) => (isSaveCommand(command) ? engine.run() : Promise.resolve()),
    run: () => engine.run(),
    hasWaiting: () => engine.hasWaiting(),
  });
}
