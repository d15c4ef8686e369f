import dns from 'node:dns/promises';
import net from 'node:net';
import webPush from 'web-push';
import { isBlockedAddress } from '../../lib/safe-fetch.js';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export type PushOutcome = 'sent' | 'gone';

/** Where push endpoints may point: https on a public address; loopback http only when allowed (tests). */
export interface EndpointRules {
  allowLoopback: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/** The reason an endpoint is refused, or null. Checked when a browser subscribes and again before each send. */
export async function endpointProblem(endpoint: string, rules: EndpointRules): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The push endpoint is not a valid URL.';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (rules.allowLoopback && LOOPBACK_HOSTS.has(host)) return null;
  if (url.protocol !== 'https:') return 'The push endpoint must use https.';
  if (url.username || url.password) return 'The push endpoint must use https.';
  const addresses = net.isIP(host)
    ? [host]
    : await dns.lookup(host, { all: true }).then(
        (list) => list.map((a) => a.address),
        () => [],
      );
  if (!addresses.length || addresses.some(isBlockedAddress)) return 'The push endpoint points to a private network.';
  return null;
}

/**
 * Sends one encrypted web push (RFC 8291 aes128gcm, VAPID RFC 8292). The
 * web-push package builds the request; fetch sends it, so http endpoints work
 * in tests and the answer is ours to read: 404/410 mean the subscription is gone.
 */
export async function sendPush(target: PushTarget, payload: string, vapid: VapidKeys, subject: string, rules: EndpointRules): Promise<PushOutcome> {
  const problem = await endpointProblem(target.endpoint, rules);
  if (problem) return 'gone';
  const details = webPush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
    vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 24 * 60 * 60,
    contentEncoding: 'aes128gcm',
  });
  const response = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : null,
    redirect: 'error',
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 404 || response.status === 410) return 'gone';
  if (!response.ok) throw new Error(`push service answered ${response.status}`);
  return 'sent';
}

export const generateVapidKeys = (): VapidKeys => webPush.generateVAPIDKeys();
