import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import webPush from 'web-push';
import { isBlockedAddress, pinnedLookup } from '../../lib/safe-fetch.js';

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
  /** The name lookup; tests inject one. Production asks the system resolver. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Tests stand a loopback address in for the internet; production never sets this. */
  isBlocked?: (address: string) => boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

const systemResolve = async (hostname: string) => (await dns.lookup(hostname, { all: true })).map((a) => a.address);

/** An endpoint with the addresses it was checked at, or why it is refused. */
type CheckedEndpoint = { url: URL; addresses: string[] } | { problem: string };

async function checkEndpoint(endpoint: string, rules: EndpointRules): Promise<CheckedEndpoint> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { problem: 'The push endpoint is not a valid URL.' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = rules.allowLoopback && LOOPBACK_HOSTS.has(host);
  if (!loopback && (url.protocol !== 'https:' || url.username || url.password)) return { problem: 'The push endpoint must use https.' };
  const resolve = rules.resolve ?? systemResolve;
  const addresses = net.isIP(host) ? [host] : await resolve(host).catch((): string[] => []);
  const isBlocked = rules.isBlocked ?? isBlockedAddress;
  if (!addresses.length || (!loopback && addresses.some(isBlocked))) return { problem: 'The push endpoint points to a private network.' };
  return { url, addresses };
}

/** The reason an endpoint is refused, or null. Checked when a browser subscribes and again before each send. */
export async function endpointProblem(endpoint: string, rules: EndpointRules): Promise<string | null> {
  const checked = await checkEndpoint(endpoint, rules);
  return 'problem' in checked ? checked.problem : null;
}

/**
 * Sends one encrypted web push (RFC 8291 aes128gcm, VAPID RFC 8292). The
 * web-push package builds the request; we send it to the addresses the check
 * before it approved and no others (pinnedLookup), so a name that changes its
 * answer between check and connection cannot reach the server's own network.
 * 404/410 mean the subscription is gone.
 */
export async function sendPush(target: PushTarget, payload: string, vapid: VapidKeys, subject: string, rules: EndpointRules): Promise<PushOutcome> {
  const checked = await checkEndpoint(target.endpoint, rules);
  if ('problem' in checked) return 'gone';
  const details = webPush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
    vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 24 * 60 * 60,
    contentEncoding: 'aes128gcm',
  });
  const status = await post(checked.url, checked.addresses, details.method, details.headers as Record<string, string>, details.body);
  if (status === 404 || status === 410) return 'gone';
  // A redirect is not followed: it would lead to an address nobody checked.
  if (status < 200 || status >= 300) throw new Error(`push service answered ${status}`);
  return 'sent';
}

function post(url: URL, addresses: string[], method: string, headers: Record<string, string>, body: Buffer | null): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // agent: false, so no pooled socket from an earlier check is reused for this one.
    const req = client.request(url, { method, headers, lookup: pinnedLookup(addresses), agent: false, signal: AbortSignal.timeout(10_000) }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

export const generateVapidKeys = (): VapidKeys => webPush.generateVAPIDKeys();
