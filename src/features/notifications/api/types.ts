import type { JsonBody, JsonResponse } from '../../../api/api-types';

// Wire shapes of the notification calls (spec §3), named once from the server's OpenAPI document.
export type NotificationPage = JsonResponse<'/api/v1/notifications', 'get'>['pagination'];
export type AppNotification = NotificationPage['data'][number];
export type NotificationData = AppNotification['data'];
export type SubscriptionsResponse = JsonResponse<'/api/v1/notifications/me/subscriptions', 'get'>;
export type Selection = SubscriptionsResponse['user_selections'][number];
export type Channels = Selection['channels'];
export type Channel = keyof Channels;
export type UpdateSelections = JsonBody<'/api/v1/notifications/me/subscriptions', 'put'>['selections'];
