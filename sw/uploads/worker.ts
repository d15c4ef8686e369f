/// <reference lib="webworker" />
import { isUploadCommand, SYNC_TAG, UPLOADS_CHANNEL } from '../../src/offline/queues/uploads/protocol';
import { createUploadEngine } from '../../src/offline/queues/uploads/create-engine';
import type { QueueHost } from '../queues/host';

/** The upload queue on the worker's queue host: its engine, its channel to the pages, its sync tag. */
export function registerUploadQueue(host: QueueHost, scope: ServiceWorkerGlobalScope): void {
  const channel = new BroadcastChannel(UPLOADS_CHANNEL);
  const engine = createUploadEngine(
    { fetch: (input, init) => scope.fetch(input, init), origin: scope.location.origin, getXsrfToken: () => host.session.xsrfToken() },
    (event) => channel.postMessage(event),
    host.session,
  );
  host.register({
    name: 'uploads',
    syncTag: SYNC_TAG,
    apply: (command) => (isUploadCommand(command) ? engine.apply(command) : Promise.resolve()),
    run: () => engine.run(),
    hasWaiting: () => engine.hasWaiting(),
  });
}
