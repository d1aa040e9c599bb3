import { describe, expect, it } from 'vitest';
import { liftMediaAltTexts, type SourceData } from '../../../src/importers/buttercms/source.js';

const cdn = 'https://cdn.buttercms.com';

function sourceWith(pages: SourceData['pages'], items: SourceData['collections']): SourceData {
  return {
    pages, collections: items, posts: [], authors: [], categories: [], tags: [], blogRead: false,
    pageTypes: { configured: [], discovered: [], missing: [] }, collectionKeys: { configured: [], discovered: [], missing: [] },
    unknownItemIds: [], itemDrafts: { draftOnly: new Set(), edits: new Map() }, warnings: [],
  };
}

const page = (fields: Record<string, unknown>, draftFields?: Record<string, unknown>): SourceData['pages'][number] => ({
  slug: 'home', name: 'Home', published: null, updated: null, page_type: null, status: null, scheduled: null, fields, draftFields,
});

describe('liftMediaAltTexts (media read with alt_media_text=1)', () => {
  it('puts { url, alt } back to its URL everywhere and returns the first non-empty alt text per URL', () => {
    const source = sourceWith(
      [page(
        { hero: { url: `${cdn}/AAA`, alt: 'A rocket' }, gallery: [{ url: `${cdn}/BBB`, alt: '' }, { url: `${cdn}/CCC`, alt: 'Third' }], nested: { card: { image: { url: `${cdn}/AAA`, alt: 'Another alt' } } } },
        { hero: { url: `${cdn}/DDD`, alt: 'Draft hero' } },
      )],
      new Map([['people', [{ meta: { id: 7 }, name: 'Wile', photo: { url: `${cdn}/BBB`, alt: 'Coyote' } }]]]),
    );
    const alts = liftMediaAltTexts(source, []);
    expect(source.pages[0]!.fields).toEqual({ hero: `${cdn}/AAA`, gallery: [`${cdn}/BBB`, `${cdn}/CCC`], nested: { card: { image: `${cdn}/AAA` } } });
    expect(source.pages[0]!.draftFields).toEqual({ hero: `${cdn}/DDD` });
    expect(source.collections.get('people')).toEqual([{ meta: { id: 7 }, name: 'Wile', photo: `${cdn}/BBB` }]);
    expect(Object.fromEntries(alts)).toEqual({ [`${cdn}/AAA`]: 'A rocket', [`${cdn}/BBB`]: 'Coyote', [`${cdn}/CCC`]: 'Third', [`${cdn}/DDD`]: 'Draft hero' });
  });

  it('reads an empty media field as empty, and leaves objects that are not media alone', () => {
    const link = { url: 'https://example.com/about', alt: 'About us' };
    const source = sourceWith([page({ empty: { url: '', alt: '' }, none: { url: null }, link, plain: 'text' })], new Map());
    const alts = liftMediaAltTexts(source, []);
    expect(source.pages[0]!.fields).toEqual({ empty: '', none: '', link, plain: 'text' });
    expect(alts.size).toBe(0);
  });

  it('knows the extra media hosts it is told about', () => {
    const source = sourceWith([page({ image: { url: 'http://files.example.test/a.png', alt: 'A' } })], new Map());
    expect(Object.fromEntries(liftMediaAltTexts(source, ['files.example.test']))).toEqual({ 'http://files.example.test/a.png': 'A' });
    expect(source.pages[0]!.fields).toEqual({ image: 'http://files.example.test/a.png' });
  });
});
