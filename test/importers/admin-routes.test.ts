import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { fakeSourceConfig } from './support.js';

const base = '/api/v1/admin/migrations';

describe('admin migration routes', () => {
  let a: AdminHarness;
  let butter: FakeButter;
  let developer: string;
  let editor: string;

  beforeAll(async () => {
    a = await createAdminHarness();
    butter = await startFakeButter();
    developer = await a.signIn((await a.createUser('developer')).email);
    editor = await a.signIn((await a.createUser('editor')).email);
  });
  afterAll(async () => {
    await butter?.close();
    await a?.close();
  });

  const waitUntilDone = async (id: string) => {
    for (let i = 0; i < 3000; i += 1) {
      const res = await a.call('GET', `${base}/${id}`, { cookie: developer });
      const { data } = await res.json();
      if (['completed', 'failed', 'paused'].includes(data.status)) return data;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the migration never ended');
  };

  it('a developer creates (201, credentials shown), starts (202), follows, reads the log, lists and deletes a migration', async () => {
    const config = fakeSourceConfig(butter);
    const created = await a.call('POST', base, { cookie: developer, body: { sourcePlatform: 'buttercms', mode: 'dry_run', config } });
    expect(created.status).toBe(201);
    const { data: m } = await created.json();
    expect(m).toMatchObject({ sourcePlatform: 'buttercms', mode: 'dry_run', status: 'pending', config: { apiKey: butter.token, apiUrl: butter.url } });

    const started = await a.call('POST', `${base}/${m.id}/start`, { cookie: developer });
    expect(started.status).toBe(202);
    expect((await started.json()).data).toMatchObject({ id: m.id, status: 'mapping', progress: { phase: 'mapping' } });
    const again = await a.call('POST', `${base}/${m.id}/start`, { cookie: developer });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('MIGRATION_STATE');

    const done = await waitUntilDone(m.id);
    expect(done).toMatchObject({ status: 'completed', config: { apiKey: butter.token } });
    expect(done.report.counts.pages).toBeGreaterThan(0);

    const logs = await a.call('GET', `${base}/${m.id}/logs`, { cookie: developer });
    expect(logs.status).toBe(200);
    const lines = (await logs.json()).data as Array<{ id: number; level: string; message: string }>;
    expect(lines[0]!.message).toMatch(/^Created \(dry_run\) by user:/);
    expect(lines.at(-1)!.message).toBe('Dry run complete: nothing was written');
    const warnings = await a.call('GET', `${base}/${m.id}/logs?level=warning&limit=500`, { cookie: developer });
    expect(((await warnings.json()).data as Array<{ level: string }>).every((l) => l.level === 'warning')).toBe(true);
    const after = await a.call('GET', `${base}/${m.id}/logs?after=${lines.at(-2)!.id}`, { cookie: developer });
    expect((await after.json()).data).toHaveLength(1);
    const badLevel = await a.call('GET', `${base}/${m.id}/logs?level=debug`, { cookie: developer });
    expect(badLevel.status).toBe(400);
    expect((await badLevel.json()).error.code).toBe('INVALID_QUERY');

    const pause = await a.call('POST', `${base}/${m.id}/pause`, { cookie: developer });
    expect(pause.status).toBe(409);
    expect((await pause.json()).error.code).toBe('MIGRATION_STATE');

    const list = await a.call('GET', base, { cookie: developer });
    expect((await list.json()).data.map((x: { id: string }) => x.id)).toContain(m.id);

    const removed = await a.call('DELETE', `${base}/${m.id}`, { cookie: developer });
    expect(removed.status).toBe(200);
    expect((await removed.json()).data).toEqual({ success: true, id: m.id });
    expect((await a.call('GET', `${base}/${m.id}`, { cookie: developer })).status).toBe(404);
  });

  it('refuses a bad body with every problem at once', async () => {
    const res = await a.call('POST', base, { cookie: developer, body: { sourcePlatform: 'wordpress', mode: 'all', config: {} } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['config.apiKey', 'mode', 'sourcePlatform']);
  });

  it('needs the developer role; editors, anonymous callers and API keys are refused', async () => {
    const body = { sourcePlatform: 'buttercms', mode: 'dry_run', config: fakeSourceConfig(butter) };
    const asEditor = await a.call('POST', base, { cookie: editor, body });
    expect(asEditor.status).toBe(403);
    expect((await asEditor.json()).error.code).toBe('FORBIDDEN');
    expect((await a.call('GET', base, { cookie: editor })).status).toBe(403);
    expect((await a.call('GET', base)).status).toBe(401);
    const secret = (await a.t.run('keys.create', { type: 'secret', permissions: 'content:write,media:write' })).key as string;
    expect((await a.call('GET', base, { headers: { 'x-api-key': secret } })).status).toBe(401);
  });

  it('an unknown migration is 404 on every route', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [['GET', `${base}/${id}`], ['POST', `${base}/${id}/start`], ['POST', `${base}/${id}/pause`], ['GET', `${base}/${id}/logs`], ['DELETE', `${base}/${id}`]] as const) {
      const res = await a.call(method, path, { cookie: developer });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    }
  });
});
