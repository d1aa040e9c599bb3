import { describe, expect, it } from 'vitest';
import {
  createNameAllocator,
  humanize,
  isValidFieldName,
  isValidSlug,
  makeUnique,
  toFieldName,
  toKebabCase,
  toSlug,
} from '../../../src/importers/buttercms/names.js';

describe('toKebabCase', () => {
  it('turns ButterCMS snake_case component names into kebab-case slugs', () => {
    expect(toKebabCase('two_column_with_image')).toBe('two-column-with-image');
    expect(toKebabCase('hero')).toBe('hero');
    expect(toKebabCase('navigation_menu_item')).toBe('navigation-menu-item');
  });

  it('splits camelCase and acronyms, and cleans stray separators', () => {
    expect(toKebabCase('heroImage')).toBe('hero-image');
    expect(toKebabCase('ButtonURL')).toBe('button-url');
    expect(toKebabCase('__Two  Column__')).toBe('two-column');
    expect(toKebabCase('landing-page')).toBe('landing-page');
  });
});

describe('toFieldName', () => {
  const valid = /^[a-zA-Z][a-zA-Z0-9_]*$/;

  it('keeps keys that are already valid unchanged', () => {
    for (const key of ['hero_image', 'seo', 'buttonurl', 'ButtonURL', 'a__b', 'x1']) expect(toFieldName(key)).toBe(key);
  });

  it('replaces invalid characters with underscores', () => {
    expect(toFieldName('hero-image')).toBe('hero_image');
    expect(toFieldName('call to action')).toBe('call_to_action');
    expect(toFieldName('price ($)')).toBe('price_');
    expect(toFieldName('café')).toBe('cafe');
  });

  it('prefixes f_ when the key does not start with a letter', () => {
    expect(toFieldName('2col')).toBe('f_2col');
    expect(toFieldName('_private')).toBe('f__private');
    expect(toFieldName('-x')).toBe('f__x');
  });

  it('never returns an empty or invalid name', () => {
    for (const key of ['', '___', '!!!', '  ', '日本語', '0', '9-9']) {
      const name = toFieldName(key);
      expect(name).not.toBe('');
      expect(name).toMatch(valid);
    }
  });
});

describe('toSlug', () => {
  it('produces slugs matching ^[a-z0-9]+(?:-[a-z0-9]+)*$', () => {
    expect(toSlug('Spring Launch!')).toBe('spring-launch');
    expect(toSlug('navigation_menu_item')).toBe('navigation-menu-item');
    expect(toSlug('--Über  Café--')).toBe('uber-cafe');
    expect(toSlug('Acme 2024')).toBe('acme-2024');
    for (const s of ['Spring Launch!', 'x', 'A_B-C', '  9 lives ']) expect(isValidSlug(toSlug(s))).toBe(true);
  });

  it('falls back when nothing usable is left', () => {
    expect(toSlug('***')).toBe('untitled');
    expect(toSlug('', 'page')).toBe('page');
  });
});

describe('unique names', () => {
  it('de-duplicates collisions as name, name_2, name_3', () => {
    const taken = new Set<string>();
    expect(makeUnique('name', taken)).toBe('name');
    expect(makeUnique('name', taken)).toBe('name_2');
    expect(makeUnique('name', taken)).toBe('name_3');
    expect(makeUnique('other', taken)).toBe('other');
  });

  it('skips suffixes that are already taken and supports other separators', () => {
    const next = createNameAllocator('-');
    expect(next('hero')).toBe('hero');
    expect(next('hero-2')).toBe('hero-2');
    expect(next('hero')).toBe('hero-3');
  });

  it('keeps colliding source keys apart', () => {
    const next = createNameAllocator();
    expect(['hero-image', 'hero_image', 'hero image'].map((k) => next(toFieldName(k)))).toEqual([
      'hero_image',
      'hero_image_2',
      'hero_image_3',
    ]);
  });
});

describe('humanize and validity checks', () => {
  it('labels keys for people', () => {
    expect(humanize('hero_image')).toBe('Hero image');
    expect(humanize('two_column_with_image')).toBe('Two column with image');
    expect(humanize('ButtonURL')).toBe('Button URL');
    expect(humanize('seo')).toBe('Seo');
  });

  it('checks field names and slugs', () => {
    expect(isValidFieldName('a_b')).toBe(true);
    expect(isValidFieldName('1a')).toBe(false);
    expect(isValidSlug('a-b')).toBe(true);
    expect(isValidSlug('a--b')).toBe(false);
  });
});
