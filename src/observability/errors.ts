import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys';
import { fetchClientObservability, type ClientObservability } from './client-config';
import { configureTracing } from './trace-context';

/** Errors that happen before the SDK is loaded are kept (a few) and reported once it is. */
const EARLY_LIMIT = 20;

/**
 * Error reporting in the page, when the site has a DSN: the SDK is a separate
 * chunk fetched only then, after the first screen, so a site without
 * reporting pays one small request and nothing in its main bundle. The user
 * id follows the bootstrap data (sign-in, sign-out); nothing else about them is sent.
 */
export function startErrorReporting(client: QueryClient, options: { fetchConfig?: () => Promise<ClientObservability | null> } = {}): void {
  const early: unknown[] = [];
  const keep = (error: unknown) => early.length < EARLY_LIMIT && early.push(error);
  const onError = (event: ErrorEvent) => keep(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => keep(event.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  const stopKeeping = () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };

  const load = async () => {
    const config = await (options.fetchConfig ?? fetchClientObservability)();
    // The same answer says whether the server exports traces: the page's calls then carry traceparent.
    configureTracing(config);
    if (!config?.dsn) return stopKeeping();
    const sdk = await import('./sentry-setup');
    stopKeeping();
    sdk.initSentry({ ...config, dsn: config.dsn }, 'app');
    const userId = () => (client.getQueryData(queryKeys.bootstrap) as { user?: { id: number } | null } | undefined)?.user?.id ?? null;
    let current = userId();
    sdk.setUserId(current);
    client.getQueryCache().subscribe((event) => {
      if (event.query.queryKey[0] !== queryKeys.bootstrap[0]) return;
      const next = userId();
      if (next !== current) sdk.setUserId((current = next));
    });
    for (const error of early.splice(0)) sdk.captureException(error);
  };
  // After the first screen: reporting must not delay it.
  const idle = (globalThis as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => void }).requestIdleCallback;
  if (idle) idle(() => void load(), { timeout: 3000 });
  else setTimeout(() => void load(), 1000);
}
