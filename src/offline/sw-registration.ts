import { Workbox } from 'workbox-window';

// Registers the service worker and reports when a new version is waiting, so
// the page can ask before swapping code under the user's feet.
type Listener = () => void;
const listeners = new Set<Listener>();
let waiting = false;
let workbox: Workbox | null = null;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    waiting = true;
    listeners.forEach((l) => l());
  });
  // Once the new worker takes over after "Reload", load the new shell.
  workbox.addEventListener('controlling', (event) => {
    if (event.isUpdate) window.location.reload();
  });
  // A browser may refuse the worker (a private window, a blocked origin, a failed install): the app still works
  // online, without offline use. That is the browser's choice, not the app's failure, so it is said, not thrown
  // as an unhandled rejection (which the error reporter would count as an error of ours).
  workbox.register().catch((error: unknown) => {
    console.warn('The service worker was not registered: offline use is off in this browser.', error);
  });
}

export function subscribeToUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isUpdateWaiting(): boolean {
  return waiting;
}

export function applyUpdate(): void {
  workbox?.messageSkipWaiting();
}
