import type { AiConfig, AiProviderName } from '../../src/config.js';
import { createAdminHarness, type AdminHarness, type JsonResponse } from '../admin/support.js';
import { encodePng } from '../fakes/buttercms/png.js';
import { startFakeAi, type FakeAi } from '../fakes/ai/server.js';

export const fakeApiKey = 'sk-test-0123456789-secret';

/** The schema of the AI suites: a page type with every kind of field a suggestion may or may not be for. */
export const articleSchema = {
  pageTypes: [{ definition: { slug: 'article', name: 'Article', fields: [
    { name: 'headline', type: 'text' },
    { name: 'intro', type: 'textarea' },
    { name: 'body', type: 'wysiwyg' },
    { name: 'rating', type: 'number' },
    { name: 'hero', type: 'image' },
  ] } }],
  collections: [{ definition: { slug: 'faqs', name: 'FAQs', fields: [{ name: 'answer', type: 'textarea' }] } }],
  components: [],
};

export interface AiHarness {
  h: AdminHarness;
  fake: FakeAi;
  editor: string;
  admin: string;
  viewer: string;
  keys: { ai: string; aiWrite: string; contentOnly: string; public: string };
  /** A public AI request with a key (and an Idempotency-Key when given). */
  post(path: string, body: unknown, key: string, idem?: string): Promise<JsonResponse>;
  close(): Promise<void>;
}

export async function createAiHarness(provider: AiProviderName | null, ai: Partial<AiConfig> = {}): Promise<AiHarness> {
  const fake = await startFakeAi({ apiKey: fakeApiKey });
  const config: Partial<AiConfig> = provider
    ? { provider, baseUrl: fake.baseUrl, model: 'fake-model', apiKey: fakeApiKey, timeoutMs: 2000, ...ai }
    : { ...ai };
  const h = await createAdminHarness({ config: { ai: { provider: null, baseUrl: null, model: null, apiKey: null, timeoutMs: 60_000, rateLimit: 30, images: true, structuredOutputs: true, ...config } } });
  await h.t.run('schema.push', articleSchema);
  const key = async (type: string, permissions?: string) => (await h.t.run('keys.create', { type, name: `${type} ${permissions ?? ''}`.trim(), ...(permissions ? { permissions } : {}) })).key as string;
  const keys = {
    ai: await key('secret', 'ai:use'),
    aiWrite: await key('secret', 'ai:use,content:write'),
    contentOnly: await key('secret', 'content:write'),
    public: await key('public'),
  };
  const editor = await h.signIn((await h.createUser('editor')).email);
  const admin = await h.signIn((await h.createUser('admin')).email);
  const viewer = await h.signIn((await h.createUser('viewer')).email);
  await h.t.run('pages.create', {
    pageTypeSlug: 'article', name: 'Hello world', slug: 'hello',
    fields: {
      headline: 'Baking sourdough at home',
      intro: 'A short guide to your first loaf.',
      body: '<p>Mix <strong>flour</strong> &amp; water.</p><script>alert(1)</script><p>Wait a day.</p>',
      rating: 5,
    },
  });
  await h.t.run('items.create', { collectionTypeSlug: 'faqs', name: 'How long?', slug: 'how-long', fields: { answer: 'About a day.' } });
  return {
    h, fake, editor, admin, viewer, keys,
    post(path, body, key, idem) {
      return h.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, ...(idem ? { 'idempotency-key': idem } : {}) },
        body: JSON.stringify(body),
      });
    },
    async close() {
      await h.close();
      await fake.close();
    },
  };
}

/** A small real PNG (4 × 4). */
export const smallPng = (): Buffer => encodePng(4, 4, (x, y) => [x * 60, y * 60, 128]);

/** The text the provider was sent in a recorded request (system and user parts), either wire format. */
export function sentText(body: any): string {
  const parts: string[] = [];
  const visit = (v: unknown) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) if (k === 'text' || k === 'content' || k === 'system' || k === 'messages') visit(x);
    }
  };
  visit(body.system);
  visit(body.messages);
  return parts.join('\n');
}
