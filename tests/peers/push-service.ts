import { createRequire } from 'node:module';
import net from 'node:net';

// web-push-testing (a push service on localhost that verifies the VAPID
// signature and decrypts aes128gcm with the subscription's keys), in-process.
const require = createRequire(import.meta.url);
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => object };
const PushServer = require('web-push-testing/src/server.js') as new (
  model: object,
  port: number,
) => { startServer(): void; _server: { close(cb: () => void): void; listening: boolean; once(e: string, cb: () => void): void } };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface LocalPushService {
  url: string;
  /** What a browser's pushManager.subscribe() would answer, for this VAPID public key. */
  subscribe(applicationServerKey: string): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }>;
  /** The decrypted payloads delivered to a subscription. */
  messages(endpoint: string): Promise<string[]>;
  expire(endpoint: string): Promise<void>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<LocalPushService> {
  const port = await freePort();
  const server = new PushServer(new PushApiModel(), port);
  const log = console.log;
  console.log = () => {};
  server.startServer();
  await new Promise<void>((resolve) => (server._server.listening ? resolve() : server._server.once('listening', () => resolve())));
  // Its own listen callback prints a line after 'listening': let it run while the log is still quiet.
  await new Promise((resolve) => setImmediate(resolve));
  console.log = log;
  const url = `http://localhost:${port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return response.status === 200 ? ((await response.json().catch(() => ({}))) as { data?: unknown }) : { data: undefined };
  };
  const hash = (endpoint: string) => endpoint.split('/').at(-1)!;
  return {
    url,
    async subscribe(applicationServerKey) {
      const { data } = await post('/subscribe', { applicationServerKey, userVisibleOnly: 'true' });
      return data as { endpoint: string; keys: { p256dh: string; auth: string } };
    },
    async messages(endpoint) {
      const { data } = await post('/get-notifications', { clientHash: hash(endpoint) });
      return ((data as { messages?: string[] } | undefined)?.messages ?? []).map(String);
    },
    async expire(endpoint) {
      await post(`/expire-subscription/${hash(endpoint)}`, {});
    },
    close: () => new Promise<void>((resolve) => server._server.close(() => resolve())),
  };
}
