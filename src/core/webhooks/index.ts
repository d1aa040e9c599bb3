import { listDeliveries, processWebhooks, redeliver, testWebhook } from './deliveries.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, regenerateWebhookSecret, updateWebhook } from './manage.js';

export { insertOutbox, outboxChannel, outboxRowsOf, type OutboxRow } from './outbox.js';
export type { WebhookDispatcher, WebhookPassSummary } from './port.js';
export type { AttemptView, DeliveryStatus, DeliveryView, WebhookView } from './schemas.js';

/** The webhooks operations, by name; core/registry.ts merges them into the one table. */
export const webhookOperations = {
  'webhooks.create': createWebhook,
  'webhooks.list': listWebhooks,
  'webhooks.get': getWebhook,
  'webhooks.update': updateWebhook,
  'webhooks.delete': deleteWebhook,
  'webhooks.regenerateSecret': regenerateWebhookSecret,
  'webhooks.test': testWebhook,
  'webhooks.deliveries': listDeliveries,
  'webhooks.redeliver': redeliver,
  'webhooks.process': processWebhooks,
} as const;
