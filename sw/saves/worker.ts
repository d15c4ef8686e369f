/// <reference lib="webworker" />
import { createSaveEngine } from '../../src/offline/queues/saves/create-engine';
import { savesProtocol } from '../../src/offline/queues/saves/protocol';
import type { QueueHost } from '../queues/host';

/** The document-save queue on the worker's queue host, beside the upload queue. */
export function registerSaveQueue(host: QueueHost, scope: ServiceWorkerGlobalScope): void {
  const channel = new BroadcastChannel(savesProtocol.channel);
  const engine = createSaveEngine(
    { fetch: (input, init) => scope.fetch(input, init), origin: scope.location.origin, getXsrfToken: () => host.session.xsrfToken() },
    (event) => channel.postMessage(event),
    host.session,
  );
  host.register({
    name: savesProtocol.name,
    syncTag: savesProtocol.syncTag,
    isCommand: savesProtocol.isCommand,
    apply: (command) => engine.apply(command),
    run: () => engine.run(),
    hasWaiting: () => engine.hasWaiting(),
  });
}
