/**
 * The contract accepts "a fixed subset of roughly 55 CSS color names (not the full list)". This is
 * that subset: the basic CSS keywords plus common named shades. It is fixed on purpose, so a value
 * accepted today stays accepted; do not grow it to the full CSS list without a contract change.
 */
export const cssColorNames: readonly string[] = Object.freeze([
  'black', 'white', 'red', 'green', 'blue', 'yellow', 'orange', 'purple', 'pink', 'brown',
  'gray', 'grey', 'silver', 'gold', 'navy', 'teal', 'aqua', 'cyan', 'magenta', 'fuchsia',
  'lime', 'maroon', 'olive', 'indigo', 'violet', 'coral', 'crimson', 'salmon', 'khaki', 'beige',
  'ivory', 'lavender', 'turquoise', 'tan', 'chocolate', 'tomato', 'orchid', 'plum', 'sienna', 'wheat',
  'linen', 'azure', 'skyblue', 'steelblue', 'royalblue', 'darkblue', 'lightblue', 'darkgreen', 'lightgreen', 'darkred',
  'darkgray', 'lightgray', 'hotpink', 'slategray', 'transparent',
]);

const names = new Set(cssColorNames);
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const FUNCTION = /^(rgba?|hsla?)\(\s*([^()]*?)\s*\)$/i;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const PERCENT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)%$/;
const HUE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:deg)?$/i;

function inRange(n: number, min: number, max: number): boolean {
  return Number.isFinite(n) && n >= min && n <= max;
}

function isRgbChannel(s: string): boolean {
  if (PERCENT.test(s)) return inRange(Number.parseFloat(s), 0, 100);
  return NUMBER.test(s) && inRange(Number(s), 0, 255);
}

function isAlpha(s: string): boolean {
  if (PERCENT.test(s)) return inRange(Number.parseFloat(s), 0, 100);
  return NUMBER.test(s) && inRange(Number(s), 0, 1);
}

function isHue(s: string): boolean {
  return HUE.test(s) && inRange(Number.parseFloat(s), 0, 360);
}

function isPercentage(s: string): boolean {
  return PERCENT.test(s) && inRange(Number.parseFloat(s), 0, 100);
}

/**
 * Splits the arguments of a colour function. Both the comma form `rgb(1, 2, 3)` / `rgba(1, 2, 3, 0.5)`
 * and the CSS Color 4 space form `rgb(1 2 3 / 50%)` are accepted, because editors and design tools
 * emit either; `rgb` and `rgba` (and `hsl`/`hsla`) are aliases there, so each takes an optional alpha.
 */
function splitArgs(body: string): { channels: string[]; alpha?: string } | undefined {
  if (body.includes(',')) {
    if (body.includes('/')) return undefined;
    const parts = body.split(',').map((p) => p.trim());
    if (parts.length === 4) return { channels: parts.slice(0, 3), alpha: parts[3] };
    return parts.length === 3 ? { channels: parts } : undefined;
  }
  const [main = '', alpha, ...rest] = body.split('/').map((p) => p.trim());
  if (rest.length > 0) return undefined;
  const channels = main.split(/\s+/).filter((p) => p !== '');
  if (channels.length !== 3) return undefined;
  if (alpha === undefined) return { channels };
  return alpha === '' ? undefined : { channels, alpha };
}

/** True when `value` is a colour in one of the formats of the contract (case-insensitive). */
export function isValidColor(value: string): boolean {
  const s = value.trim();
  if (s !== value || s === '') return false;
  if (HEX.test(s)) return true;
  if (names.has(s.toLowerCase())) return true;
  const match = FUNCTION.exec(s);
  if (!match) return false;
  const fn = (match[1] ?? '').toLowerCase();
  const args = splitArgs(match[2] ?? '');
  if (!args) return false;
  if (args.alpha !== undefined && !isAlpha(args.alpha)) return false;
  const [a = '', b = '', c = ''] = args.channels;
  if (fn.startsWith('rgb')) return isRgbChannel(a) && isRgbChannel(b) && isRgbChannel(c);
  return isHue(a) && isPercentage(b) && isPercentage(c);
}
