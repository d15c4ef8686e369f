/// <reference lib="webworker" />
import { uploadsProtocol } from '../../src/offline/queues/uploads/protocol';
import { createUploadEngine } from '../../src/offline/queues/uploads/create-engine';
import type { QueueHost } from '../queues/host';

/** The upload queue on the worker's queue host: its engine, its channel to the pages, its sync tag. */
export function registerUploadQueue(host: QueueHost, scope: ServiceWorkerGlobalScope): void {
  const channel = new BroadcastChannel(uploadsProtocol.channel);
  const engine = createUploadEngine(
    { fetch: (input, init) => scope.fetch(input, init), origin: scope.location.origin, getXsrfToken: () => host.session.xsrfToken() },
    (event) => channel.postMessage(event),
    host.session,
  );
  host.register({
    name: uploadsProtocol.name,
    syncTag: uploadsProtocol.syncTag,
    isCommand: uploadsProtocol.isCommand,
    apply: (command) => engine.apply(command),
    run: () => engine.run(),
    hasWaiting: () => engine.hasWaiting(),
  });
}
