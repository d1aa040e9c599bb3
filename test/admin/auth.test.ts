import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, password, type AdminHarness } from './support.js';

const login = (h: AdminHarness, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  h.fetch('/api/v1/admin/auth/login', { method: 'POST', headers, body: JSON.stringify(body) });

describe('admin sign-in', () => {
  let h: AdminHarness;
  let editor: { id: string; email: string };
  beforeAll(async () => {
    h = await createAdminHarness();
    editor = await h.createUser('editor', { email: 'Ed@Example.test' });
  });
  afterAll(async () => { await h.close(); });

  it('signs in with email and password and sets the session cookie with its flags', async () => {
    const res = await login(h, { email: 'ed@example.test', password });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.user).toEqual({ id: editor.id, email: 'ed@example.test', name: 'ed' });
    expect(body.data.expiresAt).toBe('2026-01-08T00:00:00.000Z');
    // The token travels only in the HttpOnly cookie.
    expect(JSON.stringify(body)).not.toContain('token');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^cms_session=[A-Za-z0-9_-]{40,};/);
    const flags = cookie.split(';').map((p) => p.trim());
    expect(flags).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${7 * 24 * 3600}`]));
    // Served over plain http with an http base URL: no Secure flag.
    expect(flags).not.toContain('Secure');
  });

  it('accepts the email in any case', async () => {
    const res = await login(h, { email: 'ED@EXAMPLE.TEST', password });
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const wrong = await login(h, { email: 'ed@example.test', password: 'not the password' });
    const unknown = await login(h, { email: 'nobody@example.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const a = await wrong.json();
    const b = await unknown.json();
    expect(a).toEqual(b);
    expect(a.error.code).toBe('UNAUTHORIZED');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-in body that is not JSON and has no matching Origin', async () => {
    const res = await h.fetch('/api/v1/admin/auth/login', {
      method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ email: 'ed@example.test', password }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('FORBIDDEN');
  });

  it('tells who is signed in, with the memberships and their roles', async () => {
    const cookie = await h.signIn('ed@example.test');
    const res = await h.call('GET', '/api/v1/admin/auth/me', { cookie });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.user).toMatchObject({ id: editor.id, email: 'ed@example.test' });
    expect(data.memberships).toEqual([{ project: expect.objectContaining({ slug: 'default' }), role: 'editor' }]);
    expect(data.session.expiresAt).toBe(new Date(h.clock.now().getTime() + 7 * 24 * 3600_000).toISOString());
  });

  it('answers 401 without a session', async () => {
    expect((await h.call('GET', '/api/v1/admin/auth/me')).status).toBe(401);
    expect((await h.call('GET', '/api/v1/admin/auth/me', { cookie: 'cms_session=made-up' })).status).toBe(401);
    const res = await h.call('GET', '/api/v1/admin/page-types');
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('UNAUTHORIZED');
  });

  it('logout ends the session for good and clears the cookie', async () => {
    const cookie = await h.signIn('ed@example.test');
    expect((await h.call('GET', '/api/v1/admin/page-types', { cookie })).status).toBe(200);
    const out = await h.call('POST', '/api/v1/admin/auth/logout', { cookie });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true });
    const cleared = out.headers.get('set-cookie')!;
    expect(cleared).toMatch(/^cms_session=;/);
    expect(cleared).toContain('Max-Age=0');
    // The old cookie, replayed, no longer works anywhere.
    expect((await h.call('GET', '/api/v1/admin/auth/me', { cookie })).status).toBe(401);
    expect((await h.call('GET', '/api/v1/admin/page-types', { cookie })).status).toBe(401);
    // Logging out again is harmless.
    expect((await h.call('POST', '/api/v1/admin/auth/logout', { cookie })).status).toBe(200);
  });

  it('ends one session on logout and keeps the others', async () => {
    const a = await h.signIn('ed@example.test');
    const b = await h.signIn('ed@example.test');
    await h.call('POST', '/api/v1/admin/auth/logout', { cookie: a });
    expect((await h.call('GET', '/api/v1/admin/auth/me', { cookie: a })).status).toBe(401);
    expect((await h.call('GET', '/api/v1/admin/auth/me', { cookie: b })).status).toBe(200);
  });

  it('expires a session after seven days by the engine clock', async () => {
    const cookie = await h.signIn('ed@example.test');
    h.clock.advance(7 * 24 * 3600_000 - 1000);
    expect((await h.call('GET', '/api/v1/admin/auth/me', { cookie })).status).toBe(200);
    expect((await h.call('GET', '/api/v1/admin/page-types', { cookie })).status).toBe(200);
    h.clock.advance(1000);
    const me = await h.call('GET', '/api/v1/admin/auth/me', { cookie });
    expect(me.status).toBe(401);
    expect((await me.json()).error.message).toMatch(/expired/);
    expect((await h.call('GET', '/api/v1/admin/page-types', { cookie })).status).toBe(401);
  });

  it('stores sessions only as hashes', async () => {
    const res = await login(h, { email: 'ed@example.test', password });
    const token = res.headers.get('set-cookie')!.split(';')[0]!.slice('cms_session='.length);
    const { sessions } = await import('../../src/db/schema/index.js');
    const rows = await h.t.cms.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    const { sha256Hex } = await import('../../src/lib/crypto.js');
    expect(rows.some((r) => r.tokenHash === sha256Hex(token))).toBe(true);
  });

  it('validates the sign-in body', async () => {
    const res = await login(h, { email: 'ed@example.test' });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('admin sign-in over https', () => {
  it('adds Secure to the cookie when the base URL is https', async () => {
    const { createTestCms } = await import('../helpers/engine.js');
    const { serveOverSocket } = await import('../helpers/http.js');
    const t = await createTestCms({ config: { baseUrl: 'https://cms.example.test' } });
    const http = await serveOverSocket(t.cms);
    try {
      await t.run('users.create', { email: 'o@example.test', password, role: 'owner' });
      const res = await http.fetch('/api/v1/admin/auth/login', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'o@example.test', password }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')!.split(';').map((p) => p.trim())).toContain('Secure');
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      const out = await http.fetch('/api/v1/admin/auth/logout', { method: 'POST', headers: { cookie, 'content-type': 'application/json' } });
      expect(out.headers.get('set-cookie')!.split(';').map((p) => p.trim())).toContain('Secure');
    } finally {
      await http.close();
      await t.close();
    }
  });
});
