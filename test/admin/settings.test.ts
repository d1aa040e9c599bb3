import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createAdminHarness, type AdminHarness } from './support.js';

describe('GET /api/v1/admin/settings', () => {
  const harnesses: AdminHarness[] = [];
  afterAll(async () => { for (const h of harnesses) await h.close(); });
  const start = async (previewUrl?: string) => {
    const h = await createAdminHarness(previewUrl ? { config: { previewUrl } } : {});
    harnesses.push(h);
    return h;
  };

  it('gives any member the preview URL template of the configuration', async () => {
    const template = 'http://localhost:5173/{type}/{slug}?preview={previewKey}';
    const h = await start(template);
    const viewer = await h.signIn((await h.createUser('viewer')).email);
    const res = await h.call('GET', '/api/v1/admin/settings', { cookie: viewer });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { preview: { url: template } } });
  });

  it('answers a null template when none is configured, and 401 without a session', async () => {
    const h = await start();
    const editor = await h.signIn((await h.createUser('editor')).email);
    expect(await (await h.call('GET', '/api/v1/admin/settings', { cookie: editor })).json()).toEqual({ data: { preview: { url: null } } });
    const anonymous = await h.call('GET', '/api/v1/admin/settings');
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('UNAUTHORIZED');
  });
});

describe('preview.url in cms.config.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-preview-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read from the file, CMS_PREVIEW_URL wins, and a template that is not an http(s) URL is refused', () => {
    writeFileSync(join(dir, 'cms.config.json'), JSON.stringify({ preview: { url: 'https://site.example/{slug}?k={previewKey}' } }));
    expect(loadConfig({ cwd: dir, env: {} }).previewUrl).toBe('https://site.example/{slug}?k={previewKey}');
    expect(loadConfig({ cwd: dir, env: { CMS_PREVIEW_URL: 'http://localhost:4321/{id}' } }).previewUrl).toBe('http://localhost:4321/{id}');
    expect(() => loadConfig({ cwd: dir, env: { CMS_PREVIEW_URL: 'javascript:alert(1)' } })).toThrow(ConfigError);
    writeFileSync(join(dir, 'cms.config.json'), JSON.stringify({ preview: { url: 'ftp://x/{slug}' } }));
    expect(() => loadConfig({ cwd: dir, env: {} })).toThrow(/preview/);
    writeFileSync(join(dir, 'cms.config.json'), JSON.stringify({}));
    expect(loadConfig({ cwd: dir, env: {} }).previewUrl).toBeNull();
  });
});
