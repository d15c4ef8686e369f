/// <reference lib="webworker" />
import { fetchClientObservability } from '../src/observability/client-config';
import { captureException, initSentry } from '../src/observability/sentry-setup';
import { configureTracing } from '../src/observability/trace-context';

/**
 * Error reporting (and whether to send traceparent) in the service worker: the same SDK and rules as the page
 * (an id-less "worker" side), configured from the server each time the worker
 * starts. The worker cannot load code later (no import() in service workers),
 * so the SDK is in its bundle; without a DSN it is never initialised.
 */
export function startWorkerErrorReporting(self: ServiceWorkerGlobalScope): void {
  const early: unknown[] = [];
  const onError = (event: ErrorEvent) => early.length < 20 && early.push(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => early.length < 20 && early.push(event.reason);
  self.addEventListener('error', onError);
  self.addEventListener('unhandledrejection', onRejection);
  void fetchClientObservability((input, init) => self.fetch(input, init)).then((config) => {
    self.removeEventListener('error', onError);
    self.removeEventListener('unhandledrejection', onRejection);
    // Uploads and saves the worker sends carry their item's traceparent while the server exports traces.
    configureTracing(config);
    if (!config?.dsn) return;
    initSentry({ ...config, dsn: config.dsn }, 'worker');
    for (const error of early.splice(0)) captureException(error);
  });
}
