import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Webhook-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes, keyed with
 * the whole secret string as UTF-8 (`whsec_` included), as docs/webhooks.md tells receivers.
 */
export function signBody(secret: string, body: string | Uint8Array): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** The Standard Webhooks key: the bytes after `whsec_`, base64-decoded. */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** One `v1,<base64>` entry of `webhook-signature`: HMAC-SHA256 of `id.timestamp.body`. */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** Checks an `X-Webhook-Signature` value against the raw body, in constant time. */
export function verifyBodySignature(secret: string, body: string | Uint8Array, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
