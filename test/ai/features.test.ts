import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmittedEvent } from '../../src/runtime.js';
import { articleSchema, createAiHarness, fakeApiKey, sentText, smallPng, type AiHarness } from './support.js';

/** Every AI feature through the real HTTP server, against a fake provider speaking each wire format. */
describe.each(['openai-compatible', 'anthropic'] as const)('AI features with the %s provider', (provider) => {
  let a: AiHarness;
  const events: EmittedEvent[] = [];
  const wirePath = provider === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';

  beforeAll(async () => {
    a = await createAiHarness(provider);
    a.h.t.cms.events.on('event', (e) => events.push(e));
  });
  afterAll(() => a.close());
  beforeEach(() => { a.fake.reset(); events.length = 0; });

  const page = () => a.h.t.run('pages.get', { ref: { slug: 'hello' } });

  it('proposes SEO for a page from its draft text (HTML stripped), lengths kept, nothing written', async () => {
    a.fake.script({ kind: 'object', value: {
      metaTitle: 'Baking sourdough at home: a complete beginner guide for your very first loaf of bread',
      metaDescription: 'Mix flour and water, wait a day. '.repeat(10),
      ogTitle: 'Sourdough at home', ogDescription: 'Your first loaf.',
    }, inputTokens: 321, outputTokens: 45 });
    const before = await page();
    const res = await a.post('/api/v1/ai/seo', { page: 'hello' }, a.keys.ai);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(Object.keys(data).sort()).toEqual(['metaDescription', 'metaTitle', 'ogDescription', 'ogTitle']);
    expect(data.metaTitle.length).toBeLessThanOrEqual(60);
    expect(data.metaTitle).toMatch(/^Baking sourdough at home/);
    expect(data.metaDescription.length).toBeLessThanOrEqual(160);
    expect(data.ogTitle).toBe('Sourdough at home');

    expect(a.fake.requests).toHaveLength(1);
    const sent = a.fake.requests[0]!;
    expect(sent.path).toBe(wirePath);
    expect(sent.body.model).toBe('fake-model');
    const text = sentText(sent.body);
    expect(text).toContain('Baking sourdough at home');
    expect(text).toContain('Mix flour & water. Wait a day.');
    expect(text).not.toContain('<p>');
    expect(text).not.toContain('alert(1)');
    expect(text).toContain('Write in: English (en)');
    if (provider === 'anthropic') expect(sent.body.tools[0].input_schema.required).toEqual(['metaTitle', 'metaDescription', 'ogTitle', 'ogDescription']);
    else expect(sent.body.response_format.type).toBe('json_schema');

    const after = await page();
    expect(after.version).toBe(before.version);
    expect(after.seo).toEqual(before.seo);
    expect(events).toEqual([]);
  });

  it('applies SEO through the ordinary update: version + 1, page.updated, still a draft', async () => {
    const before = await page();
    const res = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { page: 'hello', apply: true } });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ metaTitle: 'Fake metaTitle', applied: true, version: before.version + 1 });
    const after = await page();
    expect(after.version).toBe(before.version + 1);
    expect(after.status).toBe('draft');
    expect(after.seo).toMatchObject({ metaTitle: 'Fake metaTitle', metaDescription: 'Fake metaDescription', ogTitle: 'Fake ogTitle', ogDescription: 'Fake ogDescription' });
    expect(events.map((e) => e.kind)).toEqual(['page.updated']);
    const published = await a.h.fetch('/api/v1/pages/hello', { headers: { 'x-api-key': a.keys.public } });
    expect(published.status).toBe(404);
  });

  it('apply with a stale version is a VERSION_CONFLICT and writes nothing', async () => {
    const before = await page();
    const res = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { page: 'hello', apply: true, version: before.version - 1 } });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe('VERSION_CONFLICT');
    expect((await page()).version).toBe(before.version);
  });

  it('apply over the public API is a write: an Idempotency-Key, content:write besides ai:use, a replay', async () => {
    const noIdem = await a.post('/api/v1/ai/seo', { page: 'hello', apply: true }, a.keys.aiWrite);
    expect(noIdem.status).toBe(400);
    expect((await noIdem.json()).error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const aiOnly = await a.post('/api/v1/ai/seo', { page: 'hello', apply: true }, a.keys.ai, 'apply-1');
    expect(aiOnly.status).toBe(403);
    expect((await aiOnly.json()).error.message).toContain('content:write');
    expect(a.fake.requests).toHaveLength(0);
    const before = await page();
    const first = await a.post('/api/v1/ai/seo', { page: 'hello', apply: true }, a.keys.aiWrite, 'apply-2');
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody.data).toMatchObject({ applied: true, version: before.version + 1 });
    const again = await a.post('/api/v1/ai/seo', { page: 'hello', apply: true }, a.keys.aiWrite, 'apply-2');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(a.fake.requests).toHaveLength(1);
    expect((await page()).version).toBe(before.version + 1);
  });

  it('leaves dates out of what it sends, cuts a long answer between characters (never inside an emoji)', async () => {
    await a.h.t.run('schema.push', {
      ...articleSchema,
      pageTypes: [...articleSchema.pageTypes, { definition: { slug: 'event', name: 'Event', fields: [
        { name: 'title', type: 'text' },
        { name: 'day', type: 'date' },
        { name: 'starts', type: 'datetime' },
        { name: 'sessions', type: 'repeater', options: { fields: [{ name: 'topic', type: 'text' }, { name: 'at', type: 'datetime' }] } },
      ] } }],
    });
    await a.h.t.run('pages.create', {
      pageTypeSlug: 'event', name: 'Launch', slug: 'launch',
      fields: { title: 'Launch party', day: '2026-01-02', starts: '2026-01-02T10:00:00Z', sessions: [{ topic: 'Welcome', at: '2026-01-02T11:30:00.000Z' }] },
    });
    const before = await a.h.t.run('pages.get', { ref: { slug: 'launch' } });
    const emoji = '\u{1F600}';
    a.fake.script({ kind: 'object', value: {
      metaTitle: `a${emoji.repeat(34)}`, metaDescription: 'Launch party.', ogTitle: `${'b'.repeat(59)}${emoji}`, ogDescription: 'Launch.',
    } });
    const res = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { page: 'launch', apply: true } });
    const raw = await res.text();
    expect(res.status, raw).toBe(200);
    expect(raw).not.toMatch(/\\ud83d(?!\\ude00)/i);
    const { data } = JSON.parse(raw);
    expect(data.metaTitle).toBe(`a${emoji.repeat(29)}`);
    expect(data.ogTitle).toBe('b'.repeat(59));
    const after = await a.h.t.run('pages.get', { ref: { slug: 'launch' } });
    expect(after.version).toBe(before.version + 1);
    expect(after.seo.metaTitle).toBe(data.metaTitle);
    const text = sentText(a.fake.requests[0]!.body);
    expect(text).toContain('Launch party');
    expect(text).toContain('Welcome');
    expect(text).not.toMatch(/2026|day:|starts:/);
  });

  it('takes an SEO answer with an empty member as malformed: asked once more, never written over the SEO there', async () => {
    a.fake.script(
      { kind: 'object', value: { metaTitle: ' ', metaDescription: '', ogTitle: 'x', ogDescription: 'y' } },
      { kind: 'object', value: { metaTitle: '', metaDescription: 'd', ogTitle: 'x', ogDescription: 'y' } },
    );
    const before = await page();
    const res = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { page: 'hello', apply: true } });
    expect(res.status).toBe(502);
    expect((await res.json()).error.message).toContain('did not have the expected shape');
    expect(a.fake.requests).toHaveLength(2);
    expect(await page()).toMatchObject({ version: before.version, seo: before.seo });
  });

  it('applies SEO to a blog post: live at once on a published post (and says so); a version goes with pages only', async () => {
    await a.h.t.run('blog.posts.create', { title: 'Live post', slug: 'live-post', body: '<p>Out now.</p>', status: 'published' });
    const withVersion = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { post: 'live-post', apply: true, version: 3 } });
    expect(withVersion.status).toBe(400);
    expect((await withVersion.json()).error.details).toEqual([expect.objectContaining({ path: 'version', message: expect.stringContaining('page') })]);
    expect(a.fake.requests).toHaveLength(0);
    const res = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { post: 'live-post', apply: true } });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ applied: true, live: true, metaTitle: 'Fake metaTitle' });
    const read = await a.h.fetch('/api/v1/blog/posts/live-post', { headers: { 'x-api-key': a.keys.public } });
    expect((await read.json()).data.seo).toMatchObject({ metaTitle: 'Fake metaTitle' });
    await a.h.t.run('blog.posts.create', { title: 'Draft post', slug: 'draft-post', body: '<p>Soon.</p>' });
    const draft = await a.h.call('POST', '/api/v1/admin/ai/seo', { cookie: a.editor, body: { post: 'draft-post', apply: true } });
    const { data } = await draft.json();
    expect(data.applied).toBe(true);
    expect(data.live).toBeUndefined();
  });

  it('proposes SEO for a blog post and for a text given directly', async () => {
    await a.h.t.run('blog.posts.create', { title: 'Rye bread', slug: 'rye', body: '<p>Rye is <em>dense</em>.</p>', summary: 'All about rye.' });
    const post = await a.post('/api/v1/ai/seo', { post: 'rye' }, a.keys.ai);
    expect(post.status).toBe(200);
    expect(sentText(a.fake.requests[0]!.body)).toContain('Rye is dense .');
    const text = await a.post('/api/v1/ai/seo', { text: '<h1>Hi</h1> there', title: 'Greeting' }, a.keys.ai);
    expect(text.status).toBe(200);
    expect(sentText(a.fake.requests[1]!.body)).toContain('Hi there');
  });

  it('suggests alternatives for a wysiwyg field, cut down to the allowlist', async () => {
    a.fake.script({ kind: 'object', value: { suggestions: [
      '<p onclick="steal()">Mix <strong>flour</strong> and water.</p><script>alert(1)</script><iframe src="x"></iframe>',
      '<p><a href="javascript:alert(1)" title="t">link</a> <img src="https://example.com/a.png" onerror="x()" alt="a"></p>',
      '<h2 class="x" style="color: red">Third</h2>',
    ] } });
    const res = await a.post('/api/v1/ai/suggest', { page: 'hello', field: 'body', action: 'improve', count: 2 }, a.keys.ai);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.suggestions).toEqual([
      '<p>Mix <strong>flour</strong> and water.</p>',
      '<p><a title="t">link</a> <img src="https://example.com/a.png" alt="a" /></p>',
    ]);
    const text = sentText(a.fake.requests[0]!.body);
    expect(text).toContain('The text is HTML');
    expect(text).toContain('<p>Mix <strong>flour</strong>');
  });

  it('suggests for a textarea of a collection item, and for a text given directly (translate)', async () => {
    const item = await a.post('/api/v1/ai/suggest', { collection: 'faqs', item: 'how-long', field: 'answer', action: 'shorten' }, a.keys.ai);
    expect(item.status).toBe(200);
    expect((await item.json()).data.suggestions).toEqual(['Fake suggestions']);
    expect(sentText(a.fake.requests[0]!.body)).toContain('About a day.');
    const text = await a.post('/api/v1/ai/suggest', { text: 'Good morning', action: 'translate', language: 'French', count: 3 }, a.keys.ai);
    expect(text.status).toBe(200);
    expect((await text.json()).data.suggestions).toHaveLength(3);
    expect(sentText(a.fake.requests[1]!.body)).toContain('Translate the text into French');
  });

  it('refuses a field that is not text, textarea or wysiwyg, and names missing or invalid members', async () => {
    const number = await a.post('/api/v1/ai/suggest', { page: 'hello', field: 'rating', action: 'improve' }, a.keys.ai);
    expect(number.status).toBe(400);
    expect((await number.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'field', message: expect.stringContaining('number') }] });
    const unknown = await a.post('/api/v1/ai/suggest', { page: 'hello', field: 'nope', action: 'improve' }, a.keys.ai);
    expect((await unknown.json()).error.details[0].path).toBe('field');
    const noAction = await a.post('/api/v1/ai/suggest', { page: 'hello', field: 'body' }, a.keys.ai);
    expect(noAction.status).toBe(400);
    expect((await noAction.json()).error.details.map((d: any) => d.path)).toEqual(['action']);
    const badCount = await a.post('/api/v1/ai/suggest', { text: 'x', action: 'improve', count: 4 }, a.keys.ai);
    expect((await badCount.json()).error.details.map((d: any) => d.path)).toEqual(['count']);
    const noInstruction = await a.post('/api/v1/ai/suggest', { text: 'x', action: 'custom' }, a.keys.ai);
    expect((await noInstruction.json()).error.details.map((d: any) => d.path)).toEqual(['instruction']);
    const both = await a.post('/api/v1/ai/seo', { page: 'hello', text: 'x' }, a.keys.ai);
    expect(both.status).toBe(400);
    expect((await both.json()).error.details[0].path).toBe('text');
    const none = await a.post('/api/v1/ai/seo', {}, a.keys.ai);
    expect((await none.json()).error.details[0].path).toBe('page');
    const missingPage = await a.post('/api/v1/ai/seo', { page: 'nope' }, a.keys.ai);
    expect(missingPage.status).toBe(404);
    expect(a.fake.requests).toHaveLength(0);
  });

  it('writes alt text from the image itself; apply saves it on the media item', async () => {
    const media = await a.h.t.run('media.upload', { data: smallPng().toString('base64'), filename: 'loaf.png' });
    a.fake.script({ kind: 'object', value: { altText: 'A golden   sourdough loaf on a board' } });
    const res = await a.post('/api/v1/ai/alt-text', { media: media.id }, a.keys.ai);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ altText: 'A golden sourdough loaf on a board' });
    const sent = JSON.stringify(a.fake.requests[0]!.body);
    const base64 = smallPng().toString('base64');
    expect(sent).toContain(base64);
    expect(sent).toContain('loaf.png');
    const applied = await a.h.call('POST', '/api/v1/admin/ai/alt-text', { cookie: a.editor, body: { media: media.id, apply: true } });
    expect(applied.status).toBe(200);
    expect((await applied.json()).data).toEqual({ altText: 'Fake altText', applied: true });
    expect((await a.h.t.run('media.get', { id: media.id })).altText).toBe('Fake altText');
    const pdf = await a.h.t.run('media.upload', { data: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'), filename: 'doc.pdf' });
    const notImage = await a.post('/api/v1/ai/alt-text', { media: pdf.id }, a.keys.ai);
    expect(notImage.status).toBe(400);
    expect((await notImage.json()).error.details[0].path).toBe('media');
  });

  it('needs ai:use (403 naming it), a secret key, and the editor role', async () => {
    const contentOnly = await a.post('/api/v1/ai/seo', { page: 'hello' }, a.keys.contentOnly);
    expect(contentOnly.status).toBe(403);
    expect((await contentOnly.json()).error.message).toContain('ai:use');
    const pub = await a.post('/api/v1/ai/suggest', { text: 'x', action: 'fix' }, a.keys.public);
    expect(pub.status).toBe(403);
    const none = await a.h.fetch('/api/v1/ai/seo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"page":"hello"}' });
    expect(none.status).toBe(401);
    const viewer = await a.h.call('POST', '/api/v1/admin/ai/suggest', { cookie: a.viewer, body: { text: 'x', action: 'fix' } });
    expect(viewer.status).toBe(403);
    expect(a.fake.requests).toHaveLength(0);
  });

  it('maps provider failures to 502 AI_PROVIDER_ERROR with the status and a reason, never the API key', async () => {
    const cases: Array<[Parameters<AiHarness['fake']['script']>[0], number | null, string]> = [
      [{ kind: 'status', status: 401, message: `Incorrect API key provided: ${fakeApiKey}` }, 401, 'Incorrect API key'],
      [{ kind: 'status', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '17' } }, 429, 'Rate limit reached'],
      [{ kind: 'status', status: 500, message: 'The server had an error' }, 500, 'server had an error'],
      [{ kind: 'slow', ms: 4000 }, null, 'no answer within 2 s'],
    ];
    for (const [script, status, reason] of cases) {
      a.fake.reset();
      a.fake.script(script);
      const res = await a.post('/api/v1/ai/suggest', { text: 'Hello', action: 'fix' }, a.keys.ai);
      const raw = await res.text();
      expect(res.status, raw).toBe(502);
      expect(raw).not.toContain(fakeApiKey);
      const { error } = JSON.parse(raw);
      expect(error.code).toBe('AI_PROVIDER_ERROR');
      expect(error.details.status).toBe(status);
      expect(error.message).toContain(reason);
      if (status === 429) expect(error.details.retryAfter).toBe(17);
      expect(a.fake.requests).toHaveLength(1);
    }
  });

  it('asks once more after a malformed answer, then gives a clear error; every call is recorded with its tokens', async () => {
    const month = async () => {
      const res = await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.admin });
      const [m] = (await res.json()).data.months;
      return { calls: m?.calls ?? 0, failures: m?.failures ?? 0, inputTokens: m?.inputTokens ?? 0, outputTokens: m?.outputTokens ?? 0 };
    };
    const before = await month();
    a.fake.script({ kind: 'malformed' });
    const retried = await a.post('/api/v1/ai/suggest', { text: 'Hello', action: 'fix' }, a.keys.ai);
    expect(retried.status).toBe(200);
    expect(a.fake.requests).toHaveLength(2);
    a.fake.reset();
    a.fake.script({ kind: 'malformed' }, { kind: 'malformed' });
    const failed = await a.post('/api/v1/ai/suggest', { text: 'Hello', action: 'fix' }, a.keys.ai);
    expect(failed.status).toBe(502);
    expect((await failed.json()).error.message).toContain('did not have the expected shape');
    expect(a.fake.requests).toHaveLength(2);
    // Four calls answered (100 in, 20 out each, as the fake reports), three of them malformed.
    const after = await month();
    expect(after.calls - before.calls).toBe(4);
    expect(after.failures - before.failures).toBe(3);
    expect(after.inputTokens - before.inputTokens).toBeGreaterThanOrEqual(400);
    expect(after.outputTokens - before.outputTokens).toBe(80);
  });

  it('reports usage per month and per member or key to admins, failures included', async () => {
    const res = await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.admin });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.months).toHaveLength(1);
    const [month] = data.months;
    expect(month.calls).toBeGreaterThanOrEqual(15);
    expect(month.failures).toBe(9);
    expect(month.inputTokens).toBeGreaterThanOrEqual(321);
    const byKey = data.callers.find((c: any) => c.kind === 'key' && c.name === 'secret ai:use');
    expect(byKey).toMatchObject({ month: month.month, calls: expect.any(Number), failures: 7 });
    const byEditor = data.callers.find((c: any) => c.kind === 'user');
    expect(byEditor).toMatchObject({ name: expect.stringMatching(/^editor-/), calls: 7, failures: 2 });
    const calls = data.callers.reduce((n: number, c: any) => n + c.calls, 0);
    expect(calls).toBe(month.calls);
    const editor = await a.h.call('GET', '/api/v1/admin/ai/usage', { cookie: a.editor });
    expect(editor.status).toBe(403);
    const bad = await a.h.call('GET', '/api/v1/admin/ai/usage?month=2026-13', { cookie: a.admin });
    expect(bad.status).toBe(400);
  });
});
