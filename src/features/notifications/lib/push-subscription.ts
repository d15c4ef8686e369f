import { notificationCalls } from '../api/calls';

// Turning on the browser channel (spec §4): ask for permission first; only a
// grant goes on to subscribe this browser through the service worker's push
// manager with the server's VAPID key. subscribe() can hang in some browsers,
// so it is time-boxed.

export const PUSH_BLOCKED = 'Notifications blocked. Please enable them for this site from browser settings.';
const SUBSCRIBE_TIMEOUT_MS = 15_000;

export type PushOutcome = { ok: true } | { ok: false; reason: 'blocked' | 'unsupported' | 'failed' };

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export async function enableBrowserPush(): Promise<PushOutcome> {
  if (typeof Notification === 'undefined' || !('serviceWorker' in navigator)) return { ok: false, reason: 'unsupported' };
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, reason: 'blocked' };
  try {
    const registration = await navigator.serviceWorker.ready;
    if (!('pushManager' in registration)) return { ok: false, reason: 'unsupported' };
    const { publicKey } = await notificationCalls.pushKey();
    const subscribing = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('push subscribe timed out')), SUBSCRIBE_TIMEOUT_MS));
    const subscription = (await Promise.race([subscribing, timeout])).toJSON();
    if (!subscription.endpoint || !subscription.keys?.p256dh || !subscription.keys.auth) return { ok: false, reason: 'failed' };
    await notificationCalls.subscribePush({ endpoint: subscription.endpoint, keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth } });
    return { ok: true };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}

/** Tells the server this browser's current subscription (after the push service renewed it, or on each start). */
export async function reregisterBrowserPush(): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.ready;
  const subscription = (await registration.pushManager?.getSubscription())?.toJSON();
  if (!subscription?.endpoint || !subscription.keys?.p256dh || !subscription.keys.auth) return;
  await notificationCalls.subscribePush({ endpoint: subscription.endpoint, keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth } });
}
