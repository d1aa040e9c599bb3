import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema/index.js';
import { randomToken, sha256Hex } from '../../src/lib/crypto.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import type { WebhookDispatcher } from '../../src/core/webhooks/port.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { doors, type HttpClient } from '../helpers/http.js';
import { startReceiver, type Receiver } from './receiver.js';

/** A member of the default project with a live session; answers the cookie header. */
async function signIn(t: TestCms, role: string): Promise<string> {
  const user = await t.run('users.create', { email: `${role}-${randomToken(4).toLowerCase()}@x.test`, password: 'correct horse', role });
  const token = randomToken(32);
  await t.cms.db.insert(sessions).values({ tokenHash: sha256Hex(token), userId: user.id, expiresAt: new Date(Date.now() + 3600_000) });
  return `cms_session=${token}`;
}

for (const [door, open] of doors) {
  describe(`webhook admin routes (${door})`, () => {
    let t: TestCms;
    let http: HttpClient;
    let receiver: Receiver;
    let dispatcher: WebhookDispatcher;
    let developer: string;
    let editor: string;
    const base = '/api/v1/admin/webhooks';

    const call = async (cookie: string, method: string, path: string, body?: unknown) => {
      const res = await http.fetch(path, {
        method,
        // The CSRF rule: cookie-authenticated writes are JSON, with or without a body.
        headers: { cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() as any };
    };

    beforeAll(async () => {
      t = await createTestCms();
      http = await open(t.cms);
      receiver = await startReceiver();
      dispatcher = createWebhookDispatcher(t.cms, { timeoutMs: 5_000 });
      developer = await signIn(t, 'developer');
      editor = await signIn(t, 'editor');
    });
    afterAll(async () => {
      await dispatcher.close();
      await receiver.close();
      await http.close();
      await t.close();
    });

    it('creates (201, whole secret), lists and gets (masked), updates and deletes', async () => {
      const created = await call(developer, 'POST', base, { url: receiver.url, events: ['page.published'], headers: { 'X-Team': 'web' } });
      expect(created.status).toBe(201);
      const w = created.body.data;
      expect(w.secret).toMatch(/^whsec_/);
      expect(w).toMatchObject({ url: receiver.url, events: ['page.published'], headers: { 'X-Team': 'web' }, active: true });

      const list = await call(developer, 'GET', base);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: w.id, secret: `whsec_…${w.secret.slice(-8)}` })]);
      const got = await call(developer, 'GET', `${base}/${w.id}`);
      expect(got.body.data.secret).toBe(`whsec_…${w.secret.slice(-8)}`);

      // Credential headers' values are masked too (others are shown), and a PUT that sends the masks back keeps them.
      const token = 'Bearer tok_live_0123456789';
      expect((await call(developer, 'PUT', `${base}/${w.id}`, { headers: { 'X-Team': 'web', Authorization: token } })).body.data.headers)
        .toEqual({ 'X-Team': 'web', Authorization: token });
      const shown = (await call(developer, 'GET', `${base}/${w.id}`)).body.data.headers;
      expect(shown).toEqual({ 'X-Team': 'web', Authorization: '…6789' });
      expect((await call(developer, 'GET', base)).body.data[0].headers).toEqual(shown);
      expect((await call(developer, 'PUT', `${base}/${w.id}`, { headers: shown })).status).toBe(200);
      await call(developer, 'POST', `${base}/${w.id}/test`);
      await dispatcher.processDue();
      const got2 = receiver.received.at(-1)!;
      expect(got2.headers.authorization).toBe(token);
      expect(got2.headers['x-team']).toBe('web');

      const updated = await call(developer, 'PUT', `${base}/${w.id}`, { events: ['page.published', 'page.unpublished'] });
      expect(updated).toMatchObject({ status: 200, body: { data: { id: w.id, events: ['page.published', 'page.unpublished'] } } });

      const regenerated = await call(developer, 'POST', `${base}/${w.id}/regenerate-secret`);
      expect(regenerated.status).toBe(200);
      expect(regenerated.body.data.secret).toMatch(/^whsec_/);
      expect(regenerated.body.data.secret).not.toBe(w.secret);

      expect(await call(developer, 'DELETE', `${base}/${w.id}`)).toEqual({ status: 200, body: { data: { id: w.id, deleted: true } } });
      expect((await call(developer, 'GET', `${base}/${w.id}`)).body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    });

    it('answers validation errors with every problem, and 404 for unknown webhooks', async () => {
      const bad = await call(developer, 'POST', base, { url: 'file:///etc/passwd', events: ['page.nope'] });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_FAILED');
      expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['url', 'events[0]']));
      expect((await call(developer, 'PUT', `${base}/00000000-0000-4000-8000-000000000000`, { active: false })).status).toBe(404);
      expect((await call(developer, 'GET', `${base}/nope/deliveries?limit=0`)).status).toBe(400);
    });

    it('test sends page.updated (202), deliveries lists it with its attempt, redeliver sends it again', async () => {
      const w = (await call(developer, 'POST', base, { url: receiver.url, events: ['media.uploaded'] })).body.data;
      const before = receiver.received.length;
      const queued = await call(developer, 'POST', `${base}/${w.id}/test`);
      expect(queued.status).toBe(202);
      expect(queued.body.data).toMatchObject({ event: 'page.updated', status: 'pending' });
      await dispatcher.processDue();
      const got = receiver.received[before]!;
      expect(got.body.event).toBe('page.updated');
      expect(got.headers['x-webhook-signature']).toBe('sha256=' + createHmac('sha256', w.secret).update(got.raw).digest('hex'));

      const deliveries = await call(developer, 'GET', `${base}/${w.id}/deliveries`);
      expect(deliveries.status).toBe(200);
      expect(deliveries.body.data).toEqual([expect.objectContaining({
        id: queued.body.data.id, status: 'success', attempts: [expect.objectContaining({ attemptNumber: 1, statusCode: 200, responseBody: 'ok' })],
      })]);
      expect(deliveries.body.pagination).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });

      const again = await call(developer, 'POST', `${base}/${w.id}/deliveries/${queued.body.data.id}/redeliver`);
      expect(again.status).toBe(202);
      await dispatcher.processDue();
      expect(receiver.received[before + 1]!.headers['x-webhook-delivery-id']).toBe(queued.body.data.id);
      expect((await call(developer, 'POST', `${base}/${w.id}/deliveries/not-a-delivery/redeliver`)).status).toBe(404);
    });

    it('needs a session with the developer role', async () => {
      expect((await http.fetch(base)).status).toBe(401);
      expect(await call(editor, 'GET', base)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
      const key = await t.run('keys.create', { type: 'secret', permissions: 'content:write' });
      expect((await http.fetch(base, { headers: { 'x-api-key': key.key } })).status).toBe(401);
    });
  });
}
