import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { render } from '../../lib/errors.js';
import { currentActor, requireUser } from '../../plugins/guards.js';
import { linesFor } from '../../plugins/request-lines.js';
import { userIdOf } from '../access/actor.js';
import {
  listQuery,
  listResponse,
  markAsReadBody,
  markAsReadResponse,
  messageResponse,
  pushSubscriptionBody,
  pushUnsubscribeBody,
  subscriptionsResponse,
  updateSubscriptionsBody,
} from './schemas.js';
import type { NotificationBus } from './bus.js';
import type { NotificationsService } from './service.js';

export interface NotificationRouteDeps {
  notifications: NotificationsService;
  notificationBus: NotificationBus;
  vapidPublicKey(): Promise<string>;
}

const tags = ['notifications'];
const HEARTBEAT_MS = 25_000;

/** Spec §7 notification calls, the push subscription calls and the unread-count stream: the signed-in user's own only. */
export const notificationRoutes: FastifyPluginAsyncZod<NotificationRouteDeps> = async (app, { notifications, notificationBus, vapidPublicKey }) => {
  app.addHook('onRequest', requireUser);
  const streams = new Set<() => void>();
  // preClose, not onClose: the server waits for open requests before onClose, and a stream never ends by itself.
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get(
    '/notifications',
    { schema: { tags, summary: 'Your notifications, newest first, 30 a page', querystring: listQuery, response: { 200: listResponse } } },
    async (request) => ({ pagination: await notifications.list(userIdOf(currentActor(request)), request.query.page) }),
  );

  app.post(
    '/notifications/mark-as-read',
    {
      schema: { tags, summary: 'Mark notifications read; ids that are not yours change nothing', body: markAsReadBody, response: { 200: markAsReadResponse } },
    },
    async (request) => notifications.markAsRead(userIdOf(currentActor(request)), request.body.ids),
  );

  app.get(
    '/notifications/me/subscriptions',
    { schema: { tags, summary: 'Channels, notification groups and your choices', response: { 200: subscriptionsResponse } } },
    async (request) => notifications.subscriptions(userIdOf(currentActor(request))),
  );

  app.put(
    '/notifications/me/subscriptions',
    { schema: { tags, summary: 'Save your channel choices', body: updateSubscriptionsBody, response: { 200: messageResponse } } },
    async (request) => {
      await notifications.updateSubscriptions(userIdOf(currentActor(request)), request.body.selections);
      return { message: render('Updated preferences', await linesFor(request)) };
    },
  );

  app.get(
    '/notifications/push/key',
    { schema: { tags, summary: 'The VAPID public key browsers subscribe with', response: { 200: z.object({ publicKey: z.string() }) } } },
    async () => ({ publicKey: await vapidPublicKey() }),
  );

  app.post(
    '/notifications/push/subscriptions',
    {
      schema: {
        tags,
        summary: "Register this browser's push subscription (https, public address)",
        body: pushSubscriptionBody,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      await notifications.subscribePush(userIdOf(currentActor(request)), request.body, request.headers['user-agent'] ?? null);
      return { message: 'Subscribed' };
    },
  );

  app.post(
    '/notifications/push/unsubscribe',
    { schema: { tags, summary: "Forget this browser's push subscription", body: pushUnsubscribeBody, response: { 200: messageResponse } } },
    async (request) => {
      await notifications.unsubscribePush(userIdOf(currentActor(request)), request.body.endpoint);
      return { message: 'Unsubscribed' };
    },
  );

  // Server-sent events: one-way, plain HTTP (cookies, the CSP's connect-src 'self', proxies), and the
  // browser reconnects by itself; the page only needs to hear "the unread count is now N".
  app.get('/notifications/stream', { schema: { tags, summary: 'text/event-stream of { unreadCount } whenever it changes' } }, async (request, reply) => {
    const userId = userIdOf(currentActor(request));
    const send = (event: { unreadCount: number }) => reply.raw.write(`event: unread\ndata: ${JSON.stringify(event)}\n\n`);
    // Listening first, then the current count: a change made in between (in any process) is never missed.
    // Subscribed before the stream opens, so a failure is still an ordinary error answer.
    let open = false;
    const unsubscribe = await notificationBus.subscribe(userId, (event) => open && send(event));
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    open = true;
    const heartbeat = setInterval(() => reply.raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => {
      if (!streams.delete(end)) return;
      clearInterval(heartbeat);
      unsubscribe();
      reply.raw.end();
    };
    streams.add(end);
    request.raw.on('close', end);
    // The page may have gone while we were subscribing; 'close' has then already fired.
    if (request.raw.socket.destroyed) return end();
    try {
      send({ unreadCount: await notifications.unreadCount(userId) });
    } catch (error) {
      // The stream is already open: end it, and the browser's EventSource reconnects.
      request.log.warn({ err: error }, 'unread count for the stream failed');
      end();
    }
  });
};
