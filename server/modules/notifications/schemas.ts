import { z } from 'zod';
import { CHANNELS } from './types.js';

/** The wire contract of the notification calls (spec §3, §7). */

const action = z.object({ label: z.string(), action: z.string() });
const line = z.object({
  content: z.string(),
  type: z.enum(['primary', 'secondary']).optional(),
  icon: z.string().optional(),
  action: action.optional(),
});

export const notificationSchema = z.object({
  id: z.string(),
  type: z.string().describe('workspace-invitation or file-entry-shared'),
  read_at: z.string().nullable().describe('null: unread'),
  created_at: z.string(),
  data: z.object({
    image: z.string(),
    lines: z.array(line),
    mainAction: action,
    buttonActions: z.array(action).optional(),
    inviteId: z.string().optional(),
  }),
});

export const listQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });
export const listResponse = z.object({
  pagination: z.object({
    data: z.array(notificationSchema),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  }),
});

export const markAsReadBody = z.object({ ids: z.array(z.string().max(64)).max(1000) });
export const markAsReadResponse = z.object({ unreadCount: z.number().int() });

const channels = z.object(Object.fromEntries(CHANNELS.map((c) => [c, z.boolean()])) as Record<(typeof CHANNELS)[number], z.ZodBoolean>);

export const subscriptionsResponse = z.object({
  available_channels: z.array(z.string()),
  subscriptions: z.array(z.object({ group_name: z.string(), subscriptions: z.array(z.object({ notif_id: z.string(), name: z.string() })) })),
  user_selections: z.array(z.object({ notif_id: z.string(), channels })),
});

export const updateSubscriptionsBody = z.object({
  selections: z.array(z.object({ notif_id: z.string().max(16), channels: channels.partial().strict() })).max(100),
});

export const pushSubscriptionBody = z.object({
  endpoint: z.string().max(2048),
  keys: z.object({ p256dh: z.string().min(1).max(255), auth: z.string().min(1).max(255) }),
});
export const pushUnsubscribeBody = z.object({ endpoint: z.string().max(2048) });

export const messageResponse = z.object({ message: z.string() });
