import { describe, expect, it } from 'vitest';
import { diffFields, fallbackChain, localeDocument, mergeFields, previewUrl, textDiff, valueSource, type Locale } from '../../src/admin/editor/fieldDiff.js';

// The pure rules behind the editor's conflict dialog, versions diff, preview and locale indicator.
describe('the editor pieces\' rules (src/admin/editor/fieldDiff.ts)', () => {
  it('fills the preview template with URL-encoded values and leaves unknown names alone', () => {
    expect(previewUrl('https://site.example/{type}/{slug}?preview={previewKey}&l={locale}&id={id}&x={other}', {
      type: 'blog post', slug: 'a&b', id: 'i/d', locale: 'pt-BR', previewKey: 'preview_a+b',
    })).toBe('https://site.example/blog%20post/a%26b?preview=preview_a%2Bb&l=pt-BR&id=i%2Fd&x={other}');
  });

  it('diffs fields as added, removed and changed, ignoring key order and empty-alike values', () => {
    expect(diffFields({ a: 1, b: { x: 1, y: 2 }, c: 'gone', d: null }, { a: 2, b: { y: 2, x: 1 }, e: 'new', d: '' }, ['e'])).toEqual([
      { field: 'e', kind: 'added', before: undefined, after: 'new' },
      { field: 'a', kind: 'changed', before: 1, after: 2 },
      { field: 'c', kind: 'removed', before: 'gone', after: undefined },
    ]);
  });

  it('diffs one-line text by word and multi-line text by line', () => {
    expect(textDiff('the red fox', 'the blue fox')).toEqual([
      { op: 'same', text: 'the ' }, { op: 'del', text: 'red' }, { op: 'add', text: 'blue' }, { op: 'same', text: ' fox' },
    ]);
    expect(textDiff('a\nb\nc', 'a\nc\nd')).toEqual([
      { op: 'same', text: 'a\n' }, { op: 'del', text: 'b\n' }, { op: 'same', text: 'c' }, { op: 'add', text: '\nd' },
    ]);
  });

  it('merges mine and theirs field by field, mine unless theirs is chosen; a field the chosen side lacks is null (cleared)', () => {
    expect(mergeFields({ t: 'mine', s: 'my s' }, { t: 'theirs', s: 'their s', b: 'their b' }, { t: 'theirs' })).toEqual({ t: 'theirs', s: 'my s', b: null });
    expect(mergeFields({ t: 'mine' }, { t: 'theirs', b: 'their b' }, { b: 'theirs' })).toEqual({ t: 'mine', b: 'their b' });
  });

  it('follows the fallback chain to say where a localized value comes from', () => {
    const locales: Locale[] = [
      { code: 'en', name: 'English', fallback: null, default: true },
      { code: 'fr', name: 'French', fallback: null, default: false },
      { code: 'fr-CA', name: 'Canadian French', fallback: 'fr', default: false },
    ];
    const entry = { draftContent: { title: 'Hello', body: 'Body', price: 3 }, draftLocales: { fr: { title: 'Bonjour' }, 'fr-CA': {} } };
    expect(fallbackChain(locales, 'fr-CA')).toEqual(['fr-CA', 'fr', 'en']);
    expect(valueSource(entry, locales, 'fr-CA', 'title', true)).toEqual({ kind: 'fallback', from: 'fr', value: 'Bonjour' });
    expect(valueSource(entry, locales, 'fr-CA', 'body', true)).toEqual({ kind: 'fallback', from: 'en', value: 'Body' });
    expect(valueSource(entry, locales, 'fr', 'title', true)).toEqual({ kind: 'own' });
    expect(valueSource(entry, locales, 'fr', 'price', false)).toEqual({ kind: 'shared' });
    expect(valueSource({ draftContent: {} }, locales, 'fr', 'title', true)).toEqual({ kind: 'none' });
    expect(localeDocument(entry, 'fr', 'en', new Set(['title', 'body']))).toEqual({ price: 3, title: 'Bonjour' });
  });
});
