import { describe, it, expect } from 'vitest';
import { cssColorNames, isValidColor } from '../../../src/core/schema/index.js';

describe('isValidColor', () => {
  it.each([
    '#fff',
    '#FFF',
    '#a1b2c3',
    'rgb(255, 0, 0)',
    'rgb(0,0,0)',
    'rgb(100%, 50%, 0%)',
    'rgb(255 0 0)',
    'rgb(255 0 0 / 50%)',
    'rgba(255, 0, 0, 0.5)',
    'rgba(255, 0, 0, 1)',
    'RGBA(10, 20, 30, 0)',
    'hsl(120, 100%, 50%)',
    'hsl(120deg 100% 50%)',
    'hsla(360, 0%, 100%, 0.25)',
    'hsla(0, 0%, 0%, 40%)',
    'red',
    'Red',
    'navy',
    'transparent',
    'lightgray',
  ])('accepts %s', (value) => {
    expect(isValidColor(value)).toBe(true);
  });

  it.each([
    '',
    '#ff',
    '#ffff',
    '#fffffff',
    'fff',
    '#ggg',
    'rgb(256, 0, 0)',
    'rgb(-1, 0, 0)',
    'rgb(0, 0)',
    'rgb(0, 0, 0, 0, 0)',
    'rgba(0, 0, 0, 1.5)',
    'rgba(0, 0, 0, 120%)',
    'rgb(0 0 0 / )',
    'rgb(1, 2 3)',
    'hsl(400, 50%, 50%)',
    'hsl(120, 150%, 50%)',
    'hsl(120, 50, 50)',
    'hsla(120, 50%, 50%, 2)',
    'rgb(a, b, c)',
    'blurple',
    'rebeccapurple',
    'papayawhip',
    ' red',
    'red;',
    'url(x)',
  ])('refuses %j', (value) => {
    expect(isValidColor(value)).toBe(false);
  });

  it('has a fixed list of about 55 distinct lower-case names, each accepted', () => {
    expect(cssColorNames.length).toBeGreaterThanOrEqual(50);
    expect(cssColorNames.length).toBeLessThanOrEqual(60);
    expect(new Set(cssColorNames).size).toBe(cssColorNames.length);
    for (const name of cssColorNames) {
      expect(name).toBe(name.toLowerCase());
      expect(isValidColor(name.toUpperCase())).toBe(true);
    }
  });
});
