import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiHarness, sentText, smallPng, type AiHarness } from './support.js';

describe('AI without a provider configured', () => {
  let a: AiHarness;
  beforeAll(async () => { a = await createAiHarness(null); });
  afterAll(() => a.close());

  it('answers 503 AI_NOT_CONFIGURED on every AI route, naming the settings', async () => {
    const media = await a.h.t.run('media.upload', { data: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'), filename: 'doc.pdf' });
    const answers = [
      await a.post('/api/v1/ai/seo', { page: 'hello' }, a.keys.ai),
      await a.post('/api/v1/ai/suggest', { page: 'hello', field: 'intro', action: 'improve' }, a.keys.ai),
      await a.post('/api/v1/ai/alt-text', { media: media.id }, a.keys.ai),
      await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { page: 'hello' } }),
      await a.h.call('POST', '/api/v1/admin/ai/suggest', { cookie: a.editor, body: { text: 'x', action: 'fix' } }),
      await a.h.call('POST', '/api/v1/admin/ai/alt-text', { cookie: a.editor, body: { media: media.id } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(503);
      const { error } = await res.json();
      expect(error.code).toBe('AI_NOT_CONFIGURED');
      for (const setting of ['ai.provider', 'ai.model', 'ai.baseUrl', 'CMS_AI_PROVIDER', 'CMS_AI_API_KEY']) expect(error.message).toContain(setting);
    }
    expect(a.fake.requests).toHaveLength(0);
    // The usage report works all the same (and is empty).
    const usage = await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.admin });
    expect((await usage.json()).data).toEqual({ months: [], callers: [] });
  });
});

describe('the AI rate limit', () => {
  let a: AiHarness;
  beforeAll(async () => { a = await createAiHarness('openai-compatible', { rateLimit: 2 }); });
  afterAll(() => a.close());

  it('gives each key and each member its own budget a minute: 429 RATE_LIMITED with Retry-After past it', async () => {
    const ask = (key: string) => a.post('/api/v1/ai/suggest', { text: 'Hello', action: 'fix' }, key);
    expect((await ask(a.keys.ai)).status).toBe(200);
    expect((await ask(a.keys.ai)).status).toBe(200);
    const over = await ask(a.keys.ai);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = await over.json();
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain('2 a minute');
    expect(a.fake.requests).toHaveLength(2);
    // Another key, and a member, have budgets of their own.
    expect((await ask(a.keys.aiWrite)).status).toBe(200);
    const member = () => a.h.call('POST', '/api/v1/admin/ai/suggest', { cookie: a.editor, body: { text: 'Hello', action: 'fix' } });
    expect((await member()).status).toBe(200);
    expect((await member()).status).toBe(200);
    const memberOver = await member();
    expect(memberOver.status).toBe(429);
    expect(memberOver.headers.get('retry-after')).toBeTruthy();
    // Ordinary reads are not counted against it.
    expect((await a.h.fetch('/api/v1/pages', { headers: { 'x-api-key': a.keys.ai } })).status).toBe(200);
  });
});

describe('AI in a project with two locales', () => {
  let a: AiHarness;
  let pageId: string;
  beforeAll(async () => {
    a = await createAiHarness('anthropic');
    await a.h.t.run('locales.add', { code: 'fr' });
    await a.h.t.run('types.create', {
      kind: 'pageTypes', definition: { slug: 'doc', name: 'Doc', fields: [{ name: 'title', type: 'text', localized: true }, { name: 'sku', type: 'text' }] },
    });
    pageId = (await a.h.t.run('pages.create', { pageTypeSlug: 'doc', name: 'Greeting', slug: 'greeting', fields: { title: 'Good morning', sku: 'G-1' } })).id;
    await a.h.t.run('pages.update', { ref: { id: pageId }, locale: 'fr', fields: { title: 'Bonjour tout le monde' } });
  });
  afterAll(() => a.close());

  it('reads the draft in the locale asked for and asks for an answer in its language', async () => {
    const res = await a.post('/api/v1/ai/seo', { page: 'greeting', locale: 'fr' }, a.keys.ai);
    expect(res.status).toBe(200);
    const text = sentText(a.fake.requests[0]!.body);
    expect(text).toContain('Write in: French (fr)');
    expect(text).toContain('title: Bonjour tout le monde');
    expect(text).toContain('sku: G-1');
    const suggest = await a.post('/api/v1/ai/suggest', { page: 'greeting', field: 'title', action: 'improve', locale: 'fr' }, a.keys.ai);
    expect(suggest.status).toBe(200);
    expect(sentText(a.fake.requests[1]!.body)).toContain('Bonjour tout le monde');
    const english = await a.post('/api/v1/ai/seo', { page: 'greeting' }, a.keys.ai);
    expect(english.status).toBe(200);
    expect(sentText(a.fake.requests[2]!.body)).toContain('title: Good morning');
  });

  it('applies in the locale asked for: the French SEO is written, the English one is left alone, nothing is published', async () => {
    a.fake.reset();
    const apply = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { page: 'greeting', locale: 'fr', apply: true } });
    expect(apply.status).toBe(200);
    expect((await apply.json()).data).toMatchObject({ applied: true, metaTitle: 'Fake metaTitle' });
    const res = await a.h.call('GET', `/api/v1/admin/pages/${pageId}`, { cookie: a.editor });
    expect(res.status).toBe(200);
    const page = (await res.json()).data;
    expect(page.seoLocales.fr).toMatchObject({ metaTitle: 'Fake metaTitle', ogDescription: 'Fake ogDescription' });
    expect(page.seo?.metaTitle ?? null).not.toBe('Fake metaTitle');
    expect(page.status).toBe('draft');
  });

  it('records a call whose token counts are no counts (past 32 bits, fractional) with the counts unknown; it answered 500', async () => {
    a.fake.reset();
    const before = (await (await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.admin })).json()).data.months[0];
    a.fake.script({ kind: 'object', value: { metaTitle: 'T', metaDescription: 'D', ogTitle: 'O', ogDescription: 'OD' }, inputTokens: 2_147_483_648, outputTokens: 1.5 });
    const res = await a.post('/api/v1/ai/seo', { text: 'Hello' }, a.keys.ai);
    expect(res.status).toBe(200);
    const after = (await (await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.admin })).json()).data.months[0];
    expect(after).toMatchObject({ calls: before.calls + 1, inputTokens: before.inputTokens, outputTokens: before.outputTokens });
  });

  it('refuses an unknown locale before any call', async () => {
    a.fake.reset();
    const unknown = await a.post('/api/v1/ai/seo', { page: 'greeting', locale: 'de' }, a.keys.ai);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.details[0]).toMatchObject({ path: 'locale', message: expect.stringContaining('"de"') });
    expect(a.fake.requests).toHaveLength(0);
  });
});

describe('AI with a provider that cannot be reached, and a model set not to read images', () => {
  let a: AiHarness;
  beforeAll(async () => { a = await createAiHarness('openai-compatible', { baseUrl: 'http://127.0.0.1:9/v1', images: false }); });
  afterAll(() => a.close());

  it('answers 502 AI_PROVIDER_ERROR saying it could not reach the address, and records the failure', async () => {
    const res = await a.post('/api/v1/ai/seo', { text: 'Hello' }, a.keys.ai);
    expect(res.status).toBe(502);
    const { error } = await res.json();
    expect(error).toMatchObject({ code: 'AI_PROVIDER_ERROR', details: { status: null } });
    expect(error.message).toContain('could not reach http://127.0.0.1:9/v1');
    const usage = await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.admin });
    expect((await usage.json()).data.months).toEqual([expect.objectContaining({ calls: 1, failures: 1, inputTokens: 0 })]);
  });

  it('refuses alt text before sending anything when the model is set not to read images', async () => {
    const media = await a.h.t.run('media.upload', { data: smallPng().toString('base64'), filename: 'loaf.png' });
    const res = await a.post('/api/v1/ai/alt-text', { media: media.id }, a.keys.ai);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toContain('ai.images is false');
  });
});
