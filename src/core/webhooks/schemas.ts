import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema/index.js';
import { iso } from '../../lib/iso.js';
import { eventKinds, type EventKind } from '../context.js';

/** `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export const generateSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** List and get answers show only the secret's last 8 characters; the whole secret is shown once, at creation. */
export const maskSecret = (secret: string): string => `whsec_…${secret.slice(-8)}`;

/**
 * A custom header whose name says it carries a credential (Authorization, Cookie, X-Api-Key,
 * X-Auth-Token, a secret, a password, a signature, a session): its value is masked in list and get
 * answers. Other headers (X-Team, X-Environment) are configuration, shown as stored.
 */
const credentialName = /auth|cookie|token|secret|passw|key|credential|signature|session/i;
export const isCredentialHeader = (name: string): boolean => credentialName.test(name);

/**
 * A credential header's value in list and get answers: `…` and the last 4 characters, or `…`
 * alone for a value shorter than 12, whose last 4 would give away too much of it.
 */
export const maskHeaderValue = (value: string): string => (value.length < 12 ? '…' : `…${value.slice(-4)}`);

/** What a masked header value looks like; such a value sent back means "keep what is stored". */
const maskedHeaderValue = /^…[^…]{0,4}$/u;
export const looksMasked = (value: string): boolean => maskedHeaderValue.test(value);

/** How long a regenerated secret's predecessor keeps signing. */
export const previousSecretLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * Headers the dispatcher sets itself (or that belong to the connection): a custom header may not
 * replace them, or the receiver could no longer trust the signature headers.
 */
const reservedHeaders = new Set([
  'content-type', 'content-length', 'user-agent', 'host', 'connection', 'transfer-encoding', 'keep-alive',
  'upgrade', 'te', 'trailer', 'expect',
]);
const reservedPrefixes = ['x-webhook-', 'webhook-'];
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export const webhookUrl = z.string().trim().max(2048).superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be an absolute http:// or https:// URL' });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `must use http or https, not ${url.protocol.replace(/:$/, '')}` });
  } else if (!url.hostname) {
    ctx.addIssue({ code: 'custom', message: 'must name a host' });
  } else if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'must not carry credentials; send them in a custom header (for example Authorization)' });
  }
});

export const webhookEvents = z
  .array(z.string())
  .min(1, 'subscribe to at least one event')
  .transform((list, ctx) => {
    const known: EventKind[] = [];
    list.forEach((kind, i) => {
      const event = eventKinds.find((k) => k === kind);
      if (event) known.push(event);
      else ctx.addIssue({ code: 'custom', path: [i], message: `unknown event "${kind}" (known: ${eventKinds.join(', ')})` });
    });
    return [...new Set(known)];
  });

export const webhookHeaders = z
  .record(z.string(), z.string().max(4096))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 custom headers' });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!headerName.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid header name' });
      } else if (reservedHeaders.has(lower) || reservedPrefixes.some((p) => lower.startsWith(p))) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is set by the dispatcher and cannot be replaced' });
      } else if (seen.has(lower)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is given twice (header names ignore case)' });
      }
      seen.add(lower);
      const value = headers[name] ?? '';
      if (/[\r\n\0]/.test(value)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'must not contain line breaks' });
      } else if (/[^\t\x20-\x7e\x80-\xff]/u.test(isCredentialHeader(name) && looksMasked(value) ? value.slice(1) : value)) {
        // What HTTP (and undici, which sends it) lets a header value carry: every attempt of a
        // webhook with any other character failed before it was sent. A credential's mask, sent
        // back as shown (`…5b4a`), stands for the stored value (the update keeps that).
        ctx.addIssue({ code: 'custom', path: [name], message: 'may hold only printable ASCII, spaces, tabs and Latin-1 letters (no control characters, no emoji)' });
      }
    }
  });

export const deliveryStatuses = ['pending', 'success', 'failed', 'exhausted'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  /** Credential headers' values masked (maskHeaderValue), except those the caller just sent (create, update). */
  headers: Record<string, string>;
  active: boolean;
  /** Masked (`whsec_…` + last 8), except in the answers of create and regenerate-secret. */
  secret: string;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookViewOptions {
  revealSecret?: boolean;
  /** Header names whose values are shown whole (the caller has just sent them). */
  revealHeaders?: ReadonlySet<string>;
}

export const toWebhookView = (row: typeof webhooks.$inferSelect, now: Date, options: WebhookViewOptions = {}): WebhookView => ({
  id: row.id,
  url: row.url,
  events: row.events,
  headers: Object.fromEntries(Object.entries(row.headers)
    .map(([name, value]) => [name, options.revealHeaders?.has(name) || !isCredentialHeader(name) ? value : maskHeaderValue(value)])),
  active: row.active,
  secret: options.revealSecret ? row.secret : maskSecret(row.secret),
  previousSecretExpiresAt: row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now
    ? row.previousSecretExpiresAt.toISOString()
    : null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export interface AttemptView {
  attemptNumber: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  /** The first 10 KB of the receiver's answer. */
  responseBody: string | null;
  requestHeaders: Record<string, string> | null;
}

export interface DeliveryView {
  id: string;
  webhookId: string;
  event: string;
  status: DeliveryStatus;
  attemptCount: number;
  /** When the next attempt is due; null once the delivery succeeded or is exhausted. */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  /** The payload exactly as sent: `{ event, timestamp, data }`. */
  payload: unknown;
  createdAt: string;
  updatedAt: string;
  attempts: AttemptView[];
}

export const toAttemptView = (row: typeof webhookAttempts.$inferSelect): AttemptView => ({
  attemptNumber: row.attemptNumber,
  startedAt: row.startedAt.toISOString(),
  durationMs: row.durationMs,
  statusCode: row.statusCode,
  success: row.success,
  error: row.error,
  responseBody: row.responseBody,
  requestHeaders: row.requestHeaders,
});

export function toDeliveryView(row: typeof webhookDeliveries.$inferSelect, attempts: AttemptView[]): DeliveryView {
  // The status column holds one of deliveryStatuses; anything else reads as still pending.
  const status: DeliveryStatus = deliveryStatuses.find((s) => s === row.status) ?? 'pending';
  let payload: unknown = row.payload;
  try { payload = JSON.parse(row.payload); } catch { /* kept as the text it is */ }
  return {
    id: row.id,
    webhookId: row.webhookId,
    event: row.event,
    status,
    attemptCount: row.attemptCount,
    nextAttemptAt: status === 'pending' || status === 'failed' ? iso(row.nextAttemptAt) : null,
    lastStatusCode: row.lastStatusCode,
    payload,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    attempts,
  };
}
