import { createHmac } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createTestCms, type TestCms } from '../helpers/engine.js';
import {
  captureBytes, claimDueDeliveries, createWebhookDispatcher,
} from '../../src/webhooks/dispatcher.js';
import type { WebhookDispatcher } from '../../src/core/webhooks/port.js';
import { createHttpSender } from '../../src/webhooks/http-sender.js';
import { emitEvents } from './emit.js';
import { closedPort, ok, startReceiver, type Receiver } from './receiver.js';

const minute = 60_000;
const hour = 60 * minute;

/** The receiver's side of the signature rules (docs/webhooks.md), written out independently of the dispatcher's code. */
const expectedSignature = (secret: string, raw: Buffer) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
const standardSignatures = (secret: string, id: string, ts: string, raw: Buffer) =>
  'v1,' + createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${ts}.`).update(raw).digest('base64');

describe('webhook delivery', () => {
  let t: TestCms;
  let dispatcher: WebhookDispatcher;
  const clock = createManualClock(new Date('2026-03-01T10:00:00.000Z'));
  const receivers: Receiver[] = [];

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const emit = (kind: string, data?: unknown, count = 1) => t.run(emitEvents as never, { kind, data, count });
  const deliveries = async (id: string) => (await t.run('webhooks.deliveries', { id })).data;

  beforeAll(async () => {
    t = await createTestCms({ clock });
    dispatcher = createWebhookDispatcher(t.cms, { timeoutMs: 2_000 });
  });
  afterEach(async () => {
    // Every test starts with no webhooks, so moving the clock never wakes another test's retries.
    for (const w of await t.run('webhooks.list', {})) await t.run('webhooks.delete', { id: w.id });
    for (const r of receivers.splice(0)) await r.close();
  });
  afterAll(async () => {
    await dispatcher.close();
    await t.close();
  });

  it('signs the exact body bytes and sends the contract headers, Standard Webhooks headers and custom headers', async () => {
    const r = await receiver();
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.published'], headers: { 'X-Team': 'web', Authorization: 'Bearer t0k' } });
    await emit('page.published', { id: 'p1', name: 'Café ☕', slug: 'cafe' });
    expect(await dispatcher.processDue()).toEqual({ attempted: 1, succeeded: 1, failed: 0, exhausted: 0 });

    const [got] = r.received;
    const [delivery] = await deliveries(w.id);
    const h = got!.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('Service-Webhook/1.0');
    expect(h['x-webhook-event']).toBe('page.published');
    expect(h['x-webhook-delivery-id']).toBe(delivery.id);
    expect(h['x-webhook-signature']).toBe(expectedSignature(w.secret, got!.raw));
    expect(h['x-team']).toBe('web');
    expect(h['authorization']).toBe('Bearer t0k');
    expect(h['webhook-id']).toBe(delivery.id);
    expect(h['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(h['webhook-signature']).toBe(standardSignatures(w.secret, delivery.id, h['webhook-timestamp'] as string, got!.raw));

    expect(got!.body).toEqual({ event: 'page.published', timestamp: clock.now().toISOString(), data: { id: 'p1', name: 'Café ☕', slug: 'cafe' } });
    expect(got!.body.timestamp).toMatch(/\.\d{3}Z$/);
    expect(delivery).toMatchObject({ status: 'success', attemptCount: 1, lastStatusCode: 200, nextAttemptAt: null });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attemptNumber: 1, statusCode: 200, success: true, error: null, responseBody: 'ok' })]);
    // The attempt log keeps custom header names but not their values.
    expect(delivery.attempts[0].requestHeaders).toMatchObject({ Authorization: '(custom)', 'X-Webhook-Event': 'page.published' });
  });

  it('fails, then succeeds on the retry one minute later (a manual clock, no waiting)', async () => {
    const r = await receiver((_g, res, i) => { res.writeHead(i === 0 ? 500 : 204).end(i === 0 ? 'boom' : undefined); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.updated'] });
    await emit('page.updated');
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, failed: 1 });
    let [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'failed', attemptCount: 1, lastStatusCode: 500, nextAttemptAt: new Date(clock.now().getTime() + minute).toISOString() });
    expect(d.attempts[0]).toMatchObject({ statusCode: 500, success: false, responseBody: 'boom' });

    clock.advance(minute - 1);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 0 });
    clock.advance(1);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, succeeded: 1 });
    [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'success', attemptCount: 2, lastStatusCode: 204 });
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 204]);
    // Every attempt carries the same delivery id and the same bytes.
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.headers['x-webhook-delivery-id']).toBe(r.received[0]!.headers['x-webhook-delivery-id']);
    expect(r.received[1]!.raw.equals(r.received[0]!.raw)).toBe(true);
  });

  it('retries at +1 m, +5 m, +15 m, +1 h, +4 h and is exhausted when the fifth retry fails', async () => {
    const r = await receiver((_g, res) => { res.writeHead(500).end('down for maintenance'); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.deleted'] });
    await emit('page.deleted', { id: 'p9', name: 'Gone', slug: 'gone' });
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, failed: 1 });
    for (const delay of [minute, 5 * minute, 15 * minute, hour, 4 * hour]) {
      clock.advance(delay - 1);
      expect(await dispatcher.processDue()).toMatchObject({ attempted: 0 });
      clock.advance(1);
      const last = delay === 4 * hour;
      expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, failed: last ? 0 : 1, exhausted: last ? 1 : 0 });
    }
    const [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'exhausted', attemptCount: 6, nextAttemptAt: null });
    expect(d.attempts.map((a: { attemptNumber: number }) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6]);
    clock.advance(24 * hour);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 0 });
    expect(r.received).toHaveLength(6);
  });

  it('counts a receiver slower than the timeout as failed', async () => {
    const slow = createWebhookDispatcher(t.cms, { timeoutMs: 200 });
    const r = await receiver((_g, res) => { setTimeout(() => { if (!res.destroyed) res.writeHead(200).end('late'); }, 3_000); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['media.uploaded'] });
    await emit('media.uploaded');
    expect(await slow.processDue()).toMatchObject({ attempted: 1, failed: 1 });
    await slow.close();
    const [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'failed', lastStatusCode: null });
    expect(d.attempts[0]).toMatchObject({ statusCode: null, success: false, error: 'timed out after 200 ms' });
    expect(r.received).toHaveLength(1);
  });

  it('counts a receiver that is down as failed and retries it', async () => {
    const port = await closedPort();
    const w = await t.run('webhooks.create', { url: `http://127.0.0.1:${port}/hook`, events: ['media.deleted'] });
    await emit('media.deleted');
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, failed: 1 });
    const [d] = await deliveries(w.id);
    expect(d.status).toBe('failed');
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/);
  });

  it('keeps the first 10 KB of the answer', async () => {
    const r = await receiver((_g, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(50_000)); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    await emit('page.created');
    await dispatcher.processDue();
    const [d] = await deliveries(w.id);
    expect(d.attempts[0].responseBody).toBe('x'.repeat(10 * 1024));
  });

  it('records an answer holding NUL characters (kept as U+FFFD), so the attempt counts once', async () => {
    const r = await receiver((_g, res) => { res.writeHead(500).end('a\0b\0'); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    await emit('page.created');
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, failed: 1 });
    const [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'failed', attemptCount: 1 });
    expect(d.attempts).toEqual([expect.objectContaining({ statusCode: 500, responseBody: 'a\uFFFDb\uFFFD' })]);
    // Nothing is due again before its retry time: the attempt was not lost and resent.
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 0 });
    expect(r.received).toHaveLength(1);
  });

  it('deactivates the webhook on 410 Gone', async () => {
    const r = await receiver((_g, res) => { res.writeHead(410).end(); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    await emit('page.created');
    await dispatcher.processDue();
    expect((await t.run('webhooks.get', { id: w.id })).active).toBe(false);
    await emit('page.created');
    clock.advance(hour);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 0 });
    expect(r.received).toHaveLength(1);
  });

  it('honours Retry-After on 429 and 503 when it asks for later than the schedule', async () => {
    const answers = [
      { status: 503, retryAfter: '600' },
      { status: 429, retryAfter: '10' },
      { status: 429, retryAfter: new Date(clock.now().getTime() + 2 * hour).toUTCString() },
    ];
    const r = await receiver((_g, res, i) => { res.writeHead(answers[i]!.status, { 'retry-after': answers[i]!.retryAfter }).end(); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    await emit('page.created');
    await dispatcher.processDue();
    let [d] = await deliveries(w.id);
    expect(d.nextAttemptAt).toBe(new Date(clock.now().getTime() + 600_000).toISOString());
    clock.advance(600_000);
    await dispatcher.processDue();
    [d] = await deliveries(w.id);
    // 10 s is sooner than the schedule's 5 minutes: the schedule wins.
    expect(d.nextAttemptAt).toBe(new Date(clock.now().getTime() + 5 * minute).toISOString());
    clock.advance(5 * minute);
    const at = clock.now();
    await dispatcher.processDue();
    [d] = await deliveries(w.id);
    expect(new Date(d.nextAttemptAt).getTime()).toBeGreaterThan(at.getTime() + 15 * minute);
    expect(d.nextAttemptAt).toBe(new Date(answers[2]!.retryAfter).toISOString());
  });

  it('refuses private and loopback receivers when told to, on the resolved address', async () => {
    const strict = createWebhookDispatcher(t.cms, { blockPrivate: true, timeoutMs: 2_000 });
    const r = await receiver();
    const byIp = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    const byName = await t.run('webhooks.create', { url: `http://localhost:${r.port}/hook`, events: ['page.created'] });
    await emit('page.created');
    expect(await strict.processDue()).toMatchObject({ attempted: 2, failed: 2 });
    await strict.close();
    for (const w of [byIp, byName]) {
      const [d] = await deliveries(w.id);
      expect(d.attempts[0].error).toMatch(/^refused: .*private or loopback/);
    }
    expect(r.received).toHaveLength(0);
    // Allowed by default (local development).
    clock.advance(minute);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 2, succeeded: 2 });
  });

  it('always refuses link-local and cloud metadata receivers, by address or by name, on test and redeliver', async () => {
    const r = await receiver((_got, res) => { res.writeHead(200).end('{"AccessKeyId":"ASIA…"}'); });
    // Names a test resolves by itself, as a hostile DNS server would answer.
    const names: Record<string, string[]> = {
      'metadata.example.test': ['169.254.169.254'],
      'mapped.example.test': ['::ffff:169.254.169.254'],
      // One forbidden and one allowed address: only the allowed one is connected to.
      'mixed.example.test': ['169.254.169.254', '127.0.0.1'],
    };
    const resolve = ((hostname: string, options: { all?: boolean }, callback: (e: Error | null, a: unknown, f?: number) => void) => {
      const addresses = names[hostname];
      if (!addresses) return dnsLookup(hostname, options as never, callback as never);
      const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      return options.all ? callback(null, all) : callback(null, all[0]!.address, all[0]!.family);
    }) as unknown as typeof dnsLookup;
    const sender = createHttpSender({ timeoutMs: 2_000, blockPrivate: false, captureBytes, resolve });
    const permissive = createWebhookDispatcher(t.cms, { timeoutMs: 2_000, sender });
    const refusedUrls = [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://169.254.170.2/v2/credentials',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://2852039166/',
      `http://metadata.example.test:${r.port}/hook`,
      `http://mapped.example.test:${r.port}/hook`,
    ];
    try {
      const hooks = [];
      for (const url of refusedUrls) hooks.push(await t.run('webhooks.create', { url, events: ['page.created'] }));
      const mixed = await t.run('webhooks.create', { url: `http://mixed.example.test:${r.port}/hook`, events: ['page.created'] });
      for (const w of [...hooks, mixed]) await t.run('webhooks.test', { id: w.id });
      expect(await permissive.processDue()).toMatchObject({ attempted: refusedUrls.length + 1, succeeded: 1, failed: refusedUrls.length });
      for (const w of hooks) {
        const [d] = await deliveries(w.id);
        expect(d.attempts, w.url).toEqual([expect.objectContaining({
          statusCode: null, responseBody: null, success: false,
          error: expect.stringMatching(/^refused: .*a link-local or cloud metadata address \(always refused\)$/),
        })]);
      }
      // Loopback stays allowed by default (only CMS_WEBHOOK_BLOCK_PRIVATE refuses it): the mixed name reached 127.0.0.1.
      expect(r.received).toHaveLength(1);
      expect((await deliveries(mixed.id))[0]).toMatchObject({ status: 'success' });

      // A redelivery goes through the same check.
      const [first] = await deliveries(hooks[0]!.id);
      await t.run('webhooks.redeliver', { id: hooks[0]!.id, deliveryId: first.id });
      expect(await permissive.processDue()).toMatchObject({ attempted: 1, failed: 1 });
      const [again] = await deliveries(hooks[0]!.id);
      expect(again.attempts).toHaveLength(2);
      expect(again.attempts[1]).toMatchObject({ statusCode: null, responseBody: null, error: expect.stringMatching(/^refused: 169\.254\.169\.254 /) });
      expect(r.received).toHaveLength(1);
    } finally {
      await permissive.close();
    }
  });

  it('retries a delivery whose dispatcher died mid-attempt once its lease expires', async () => {
    const r = await receiver();
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    await emit('page.created');
    // A dispatcher claims it and then dies: nothing is sent, nothing recorded.
    const claimed = await claimDueDeliveries(t.cms.db, { now: clock.now(), limit: 10, owner: 'dead-process', leaseMs: 90_000 });
    expect(claimed).toHaveLength(1);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 0 });
    clock.advance(90_001);
    expect(await dispatcher.processDue()).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(r.received).toHaveLength(1);
    const [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'success', attemptCount: 1 });
  });

  it('sends page.updated with sample data on test, and a past delivery again on redeliver', async () => {
    const r = await receiver();
    const w = await t.run('webhooks.create', { url: r.url, events: ['media.uploaded'] });
    const queued = await t.run('webhooks.test', { id: w.id });
    expect(queued).toMatchObject({ status: 'pending', event: 'page.updated', attempts: [] });
    await dispatcher.processDue();
    expect(r.received[0]!.headers['x-webhook-event']).toBe('page.updated');
    expect(r.received[0]!.body).toMatchObject({ event: 'page.updated', data: { slug: 'sample-page', test: true } });
    expect(r.received[0]!.headers['x-webhook-signature']).toBe(expectedSignature(w.secret, r.received[0]!.raw));

    const again = await t.run('webhooks.redeliver', { id: w.id, deliveryId: queued.id });
    expect(again).toMatchObject({ id: queued.id, status: 'pending', attemptCount: 1 });
    await dispatcher.processDue();
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.headers['x-webhook-delivery-id']).toBe(queued.id);
    const [d] = await deliveries(w.id);
    expect(d).toMatchObject({ status: 'success', attemptCount: 2 });
    expect(d.attempts).toHaveLength(2);

    await expect(t.run('webhooks.redeliver', { id: w.id, deliveryId: '00000000-0000-4000-8000-000000000123' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await t.run('webhooks.update', { id: w.id, active: false });
    await expect(t.run('webhooks.test', { id: w.id })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('signs with the previous secret too for 24 hours after a regeneration', async () => {
    const r = await receiver();
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    const fresh = await t.run('webhooks.regenerateSecret', { id: w.id });
    await emit('page.created');
    await dispatcher.processDue();
    const got = r.received[0]!;
    const id = got.headers['x-webhook-delivery-id'] as string;
    const ts = got.headers['webhook-timestamp'] as string;
    expect(got.headers['webhook-signature']).toBe(`${standardSignatures(fresh.secret, id, ts, got.raw)} ${standardSignatures(w.secret, id, ts, got.raw)}`);
    expect(got.headers['x-webhook-signature']).toBe(expectedSignature(fresh.secret, got.raw));

    clock.advance(24 * hour + 1);
    await emit('page.created');
    await dispatcher.processDue();
    const later = r.received[1]!;
    expect(later.headers['webhook-signature']).toBe(
      standardSignatures(fresh.secret, later.headers['webhook-id'] as string, later.headers['webhook-timestamp'] as string, later.raw));
  });

  it('lists deliveries newest first, with their attempts, by status and page', async () => {
    const r = await receiver((g, res) => { res.writeHead(g.body.data.n % 2 ? 500 : 200).end(); });
    const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
    for (let n = 0; n < 4; n++) {
      await emit('page.created', { n });
      clock.advance(1000);
    }
    await dispatcher.processDue();
    const all = await deliveries(w.id);
    expect(all.map((d: { payload: { data: { n: number } } }) => d.payload.data.n)).toEqual([3, 2, 1, 0]);
    expect(all.every((d: { attempts: unknown[] }) => d.attempts.length === 1)).toBe(true);
    const failed = await t.run('webhooks.deliveries', { id: w.id, status: 'failed' });
    expect(failed.data.map((d: { payload: { data: { n: number } } }) => d.payload.data.n)).toEqual([3, 1]);
    expect(failed.pagination).toEqual({ total: 2, page: 1, limit: 20, totalPages: 1 });
    const page2 = await t.run('webhooks.deliveries', { id: w.id, limit: '3', page: '2' });
    expect(page2.data.map((d: { payload: { data: { n: number } } }) => d.payload.data.n)).toEqual([0]);
    expect(page2.pagination).toEqual({ total: 4, page: 2, limit: 3, totalPages: 2 });
    await expect(t.run('webhooks.deliveries', { id: w.id, limit: '500' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('sends in parallel, never more than the concurrency bound at once', async () => {
    const bounded = createWebhookDispatcher(t.cms, { concurrency: 4, timeoutMs: 5_000 });
    // Answers are held until four requests are open at once (or a moment has passed), so a
    // dispatcher that sent more than four at a time would be seen doing it.
    let open = 0;
    let most = 0;
    let held: Array<() => void> = [];
    const release = () => { const all = held; held = []; for (const fn of all) fn(); };
    const r = await receiver((_g, res) => {
      open++;
      most = Math.max(most, open);
      held.push(() => { open--; res.writeHead(200).end(); });
      if (open >= 4) release();
      else setTimeout(release, 100);
    });
    await t.run('webhooks.create', { url: r.url, events: ['collection_item.published'] });
    await emit('collection_item.published', undefined, 40);
    expect(await bounded.processDue()).toMatchObject({ attempted: 40, succeeded: 40 });
    await bounded.close();
    expect(most).toBe(4);
  });

  it('runs one pass from `webhooks.process` with the engine\'s own dispatcher, made from its configuration', async () => {
    const r = await receiver(ok);
    await t.run('webhooks.create', { url: r.url, events: ['page.unpublished'] });
    await emit('page.unpublished');
    expect(await t.run('webhooks.process', {})).toEqual({ attempted: 1, succeeded: 1, failed: 0, exhausted: 0 });
    await emit('page.unpublished');
    expect(await t.run('webhooks.process', {})).toEqual({ attempted: 1, succeeded: 1, failed: 0, exhausted: 0 });
    expect(r.received).toHaveLength(2);
  });

  it('`webhooks.process` runs the dispatcher handed in to the engine, which closes it with itself', async () => {
    let closed = 0;
    const handedIn: WebhookDispatcher = {
      processDue: async () => ({ attempted: 7, succeeded: 5, failed: 1, exhausted: 1 }),
      wake() {},
      async close() { closed++; },
    };
    const other = await createTestCms({ services: { webhooks: handedIn } });
    try {
      expect(await other.run('webhooks.process', {})).toEqual({ attempted: 7, succeeded: 5, failed: 1, exhausted: 1 });
    } finally {
      await other.close();
    }
    expect(closed).toBe(1);
  });
});
