// Samples for the importer tests: the collection sample of ButterCMS's API documentation verbatim, and the fake account rendered
// exactly as the fake server would deliver it (no socket needed for pure functions).

import { createFakeAccount, type FakeAccount } from '../../fakes/buttercms/account.js';
import { createRenderer, type Json } from '../../fakes/buttercms/render.js';
import type { SampleGroup } from '../../../src/importers/buttercms/infer.js';

/** `data[0].fields` of the sample. */
export const springLaunchFields = {
  seo: { title: 'Spring Launch | Acme', description: 'Everything new this spring.' },
  headline: 'Meet the new Acme Rocket',
  intro: '<p>Faster than <strong>ever</strong>.</p>',
  hero_image: 'https://cdn.buttercms.com/Qm3xT8aLkR2pVbN9wZyE',
  launch_date: '2024-04-15T00:00:00',
  price: 199.99,
  is_featured: true,
  theme: 'dark',
  author: { meta: { id: 812001 }, name: 'Wile E. Coyote', photo: 'https://cdn.buttercms.com/H7dPqL0sWc4uYtRz8KbM' },
  related_products: [
    { meta: { id: 812044 }, name: 'Rocket Skates', sku: 'RS-1' },
    { meta: { id: 812045 }, name: 'Giant Magnet', sku: 'GM-9' },
  ],
  faq: [
    { question: 'Does it ship worldwide?', answer: 'Yes.' },
    { question: 'Warranty?', answer: 'One year.' },
  ],
  body: [
    {
      type: 'hero',
      fields: { headline: 'Launch day', image: 'https://cdn.buttercms.com/Z2vYk9WmP4tRs1LqA0cD', button_label: 'Buy now', button_url: '/buy' },
    },
    {
      type: 'two_column_with_image',
      fields: {
        headline: 'Built tough',
        subheadline: '<p>Steel frame.</p>',
        image: 'https://cdn.buttercms.com/bN5cX7eR1tYu3IoP9aSd',
        image_position: 'right',
      },
    },
  ],
};

/** `data[1].fields` of the sample: empty values, and the author past the `levels` limit. */
export const summerSaleFields = {
  seo: { title: 'Summer Sale', description: '' },
  headline: 'Up to 40% off',
  intro: '',
  hero_image: 'https://cdn.buttercms.com/Lr8sV2nQ0wXy6TzK4mPa',
  launch_date: '2024-06-01T08:00:00',
  price: 0,
  is_featured: false,
  theme: 'light',
  author: '/v2/content/?keys=people[_id=812001]',
  related_products: [],
  faq: [],
  body: [],
};

/** The sample's ids belong to these collections (the fake account agrees). */
export function collectionOfSpecItem(id: number | string): string | undefined {
  const n = Number(id);
  if (n >= 812001 && n < 812040) return 'people';
  if (n >= 812040 && n < 813000) return 'products';
  if (n >= 813001) return 'navigation_menu_item';
  return undefined;
}

export const MEDIA_BASE = 'http://127.0.0.1:4010/media';
export const MEDIA_HOST = '127.0.0.1:4010';

export interface RenderedAccount {
  account: FakeAccount;
  groups: SampleGroup[];
  /** Delivered pages by slug (fields as served at levels=2). */
  pages: Map<string, { page_type: string | null; fields: Record<string, Json> }>;
  /** Delivered items by id, with the collection key. */
  items: Map<number, { collection: string; item: Record<string, Json> }>;
}

/** The fake account as the importer would read it: every page type, collection and single page. */
export function renderAccount(levels = 2): RenderedAccount {
  const account = createFakeAccount(MEDIA_BASE);
  const render = createRenderer(account, { levels, altMediaText: false });
  const groups: SampleGroup[] = [];
  const pages = new Map<string, { page_type: string | null; fields: Record<string, Json> }>();
  const items = new Map<number, { collection: string; item: Record<string, Json> }>();
  for (const [collection, list] of Object.entries(account.collections)) {
    const rendered = list.map((i) => render.item(i) as Record<string, Json>);
    rendered.forEach((item, n) => items.set(list[n]!.id, { collection, item }));
    groups.push({ id: collection, kind: 'collection', samples: rendered });
  }
  const types = [...new Set(account.pages.map((p) => p.page_type))];
  for (const type of types) {
    const ofType = account.pages.filter((p) => p.page_type === type);
    const rendered = ofType.map((p) => render.page(p) as { slug: string; page_type: string | null; fields: Record<string, Json> });
    for (const p of rendered) pages.set(p.slug, { page_type: p.page_type, fields: p.fields });
    if (type === null) {
      // Each single page becomes a page type of its own (docs/migrating-from-buttercms.md).
      for (const p of rendered) groups.push({ id: p.slug, samples: [p.fields] });
    } else {
      groups.push({ id: type, samples: rendered.map((p) => p.fields) });
    }
  }
  return { account, groups, pages, items };
}
