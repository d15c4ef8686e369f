import { captureException as capture, init, setUser } from '@sentry/browser';
import type { ClientObservability } from './client-config';
import { scrubBreadcrumb, scrubEvent } from '../../common/scrub';

/**
 * The browser SDK, set up the same way in the page and in the service worker:
 * envelopes go through this site's tunnel, the user is an id or nobody, and
 * every event and breadcrumb is scrubbed (scrub.ts). In the page this module
 * is its own chunk, loaded only when a DSN is set.
 */
export function initSentry(config: ClientObservability & { dsn: string }, side: 'app' | 'worker'): void {
  init({
    dsn: config.dsn,
    tunnel: config.tunnel,
    release: config.release,
    environment: config.environment,
    sampleRate: config.sampleRate,
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    sendClientReports: false,
    initialScope: { tags: { side } },
    // The defaults (global handlers, breadcrumbs of clicks, navigations and fetches, linked errors, dedupe)
    // without the ones that would send more than errors.
    integrations: (defaults) => defaults.filter((integration) => !['BrowserSession', 'CultureContext'].includes(integration.name)),
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
  });
}

export const captureException = (error: unknown) => capture(error);
export const setUserId = (id: number | null) => setUser(id === null ? null : { id: String(id) });
