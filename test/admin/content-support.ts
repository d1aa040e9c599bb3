import type { EmittedEvent } from '../../src/runtime.js';
import type { AdminHarness } from './support.js';

/** Every committed event of the engine, in order; `take()` returns those since the last take. */
export function recordEvents(h: AdminHarness) {
  const all: EmittedEvent[] = [];
  let seen = 0;
  h.t.cms.events.on('event', (e) => all.push(e));
  return {
    all,
    take(): Array<{ kind: string; data: any }> {
      const out = all.slice(seen).map((e) => ({ kind: e.kind, data: e.data as any }));
      seen = all.length;
      return out;
    },
  };
}

export const schema = {
  pageTypes: [{ definition: { slug: 'article', name: 'Article', fields: [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'body', label: 'Body', type: 'textarea' },
    { name: 'author', label: 'Author', type: 'reference', options: { collectionType: 'authors' } },
  ] } }],
  collections: [{ definition: { slug: 'authors', name: 'Authors', fields: [
    { name: 'bio', label: 'Bio', type: 'text', required: true },
    { name: 'age', label: 'Age', type: 'number' },
  ] } }],
  components: [],
};
