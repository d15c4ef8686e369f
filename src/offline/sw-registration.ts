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
  void workbox.register();
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
