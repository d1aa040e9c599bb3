import DOMPurify from 'dompurify';

// The wysiwyg field's HTML sanitiser: EXACTLY the contract's allowlist (service-interface.md, "Rich text
// (wysiwyg) content"). The server stores wysiwyg values as given, so everything the admin editor emits
// goes through sanitizeWysiwyg; pasted HTML goes through cleanPastedHtml first (Word and web-page
// clean-up), then through the same allowlist.

const tags = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'br', 'hr',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'a', 'span', 'img'];

const styled = ['class', 'style'];
/** The attributes each tag keeps; every other attribute (event handlers, data-*, aria-*, id...) is dropped. */
const attributesByTag: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'target', 'rel', 'title']),
  img: new Set(['src', 'alt', 'title', 'width', 'height']),
  ...Object.fromEntries(['span', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote'].map((t) => [t, new Set(styled)])),
  ...Object.fromEntries(['pre', 'code', 'ul', 'ol', 'li'].map((t) => [t, new Set(['class'])])),
};
const allAttributes = [...new Set(Object.values(attributesByTag).flatMap((s) => [...s]))];

/** URL schemes a link may use; anything else with a scheme (javascript:, vbscript:, data:, file:...) is dropped. */
const linkSchemes = new Set(['http', 'https', 'mailto', 'tel']);
/** Image sources: http(s) and relative URLs only. data: images are dropped (decided: they bloat the stored
 * HTML and bypass the media library; pasted data: images disappear, insert them through the library). */
const imageSchemes = new Set(['http', 'https']);

/** The scheme of a URL after removing what browsers ignore (whitespace and control characters), or null
 * for a relative URL. */
function schemeOf(url: string): string | null {
  // eslint-disable-next-line no-control-regex
  const cleaned = url.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  return m ? (m[1] ?? '').toLowerCase() : null;
}

/** True for a URL a link (href) may point at: relative, http(s), mailto or tel. */
export function isSafeLinkUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === null || linkSchemes.has(scheme);
}

/** True for an image source: relative or http(s). */
export function isSafeImageUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === null || imageSchemes.has(scheme);
}

/** CSS declarations kept in a style attribute: plain `property: value` pairs, without Word's mso-*
 * properties, and without anything that could load or run something (url(), expression(), escapes). */
function cleanStyle(style: string): string {
  return style.split(';').map((d) => d.trim()).filter((d) => {
    const m = /^([a-z-]+)\s*:\s*(.+)$/i.exec(d);
    if (!m) return false;
    const prop = m[1] ?? '', value = m[2] ?? '';
    if (/^mso-/i.test(prop) || /^-/.test(prop)) return false;
    return !/url\s*\(|expression\s*\(|javascript:|vbscript:|@import|\\|behavior|[<>]/i.test(value);
  }).join('; ');
}

/** Class names kept: plain identifiers, without Word's Mso* classes. */
function cleanClass(value: string): string {
  return value.split(/\s+/).filter((c) => /^[A-Za-z_][\w-]*$/.test(c) && !/^mso/i.test(c)).join(' ');
}

type Purifier = ReturnType<typeof DOMPurify>;
let purifier: Purifier | null = null;

function getPurifier(): Purifier {
  if (purifier) return purifier;
  // A private instance, so the hooks below never leak into another DOMPurify user.
  const p = DOMPurify(window);
  p.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName.toLowerCase();
    if (!attributesByTag[tag]?.has(name)) { data.keepAttr = false; return; }
    const value = data.attrValue.trim();
    let next: string | null = value;
    if (name === 'href') next = isSafeLinkUrl(value) ? value : null;
    else if (name === 'src') next = value && isSafeImageUrl(value) ? value : null;
    else if (name === 'width' || name === 'height') next = /^\d{1,5}%?$/.test(value) ? value : null;
    else if (name === 'target') next = ['_blank', '_self', '_parent', '_top'].includes(value) ? value : null;
    else if (name === 'style') next = cleanStyle(value) || null;
    else if (name === 'class') next = cleanClass(value) || null;
    if (next === null) { data.keepAttr = false; return; }
    data.attrValue = next;
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    // A link that opens a new tab never hands the opener to the target page.
    if (node.nodeName.toLowerCase() === 'a' && node.getAttribute('target') === '_blank') {
      const rel = new Set((node.getAttribute('rel') ?? '').split(/\s+/).filter(Boolean));
      rel.add('noopener'); rel.add('noreferrer');
      node.setAttribute('rel', [...rel].join(' '));
    }
  });
  purifier = p;
  return p;
}

/** The HTML reduced to the contract's allowlist of tags and per-tag attributes. */
export function sanitizeWysiwyg(html: string): string {
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS: tags,
    ALLOWED_ATTR: allAttributes,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    KEEP_CONTENT: true,
  });
}

// ---- Paste clean-up --------------------------------------------------------------------------------

const blockTags = new Set(['address', 'article', 'aside', 'blockquote', 'div', 'dl', 'dd', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'ul']);
/** Containers that become paragraphs when they hold only inline content, and are unwrapped otherwise. */
const paragraphLike = new Set(['div', 'td', 'th', 'dt', 'dd', 'caption', 'figcaption', 'address', 'section', 'article',
  'header', 'footer', 'main', 'aside', 'nav']);
/** Containers whose children are kept in their place. */
const unwrapped = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'dl', 'figure', 'fieldset', 'form', 'font', 'center']);

function hasBlockChild(el: Element): boolean {
  return [...el.children].some((c) => blockTags.has(c.localName));
}

function rename(el: Element, tag: string): Element {
  const next = el.ownerDocument.createElement(tag);
  while (el.firstChild) next.appendChild(el.firstChild);
  el.replaceWith(next);
  return next;
}

function unwrap(el: Element): void {
  el.replaceWith(...el.childNodes);
}

/** Word's list paragraphs (style mso-list: lN levelM) become real nested lists; the bullet or number
 * Word writes inside `<![if !supportLists]>` ... `<![endif]>` is dropped. */
function convertWordLists(body: HTMLElement): void {
  const doc = body.ownerDocument;
  const isListPara = (n: Element | null): n is HTMLElement => !!n && n.localName === 'p' && /mso-list:\s*l\d+/i.test(n.getAttribute('style') ?? '');
  for (const first of [...body.querySelectorAll('p')]) {
    if (!first.isConnected || !isListPara(first) || isListPara(first.previousElementSibling)) continue;
    const run: HTMLElement[] = [];
    for (let n: Element | null = first; isListPara(n); n = n.nextElementSibling) run.push(n);
    const stack: { list: HTMLElement; level: number }[] = [];
    const roots: HTMLElement[] = [];
    for (const para of run) {
      const style = para.getAttribute('style') ?? '';
      const level = Number(/level(\d+)/i.exec(style)?.[1] ?? '1');
      const marker = removeWordListMarker(para);
      const ordered = /^\(?[0-9a-z]{1,4}[.)]/i.test(marker.trim()) && !/^[·•o§\-–]/.test(marker.trim());
      while (stack.length && stack[stack.length - 1]!.level > level) stack.pop();
      let top = stack[stack.length - 1];
      if (!top || top.level < level) {
        const list = doc.createElement(ordered ? 'ol' : 'ul');
        if (top) (top.list.lastElementChild ?? top.list).appendChild(list);
        else roots.push(list);
        top = { list, level };
        stack.push(top);
      }
      const li = doc.createElement('li');
      while (para.firstChild) li.appendChild(para.firstChild);
      top.list.appendChild(li);
    }
    first.replaceWith(...roots);
    for (const para of run) para.remove();
  }
}

/** Removes the nodes between `<![if !supportLists]>` and `<![endif]>` (parsed as comments) in a Word list
 * paragraph and returns their text (the bullet or number). */
function removeWordListMarker(para: Element): string {
  let text = '';
  const walker = para.ownerDocument.createTreeWalker(para, 128 /* NodeFilter.SHOW_COMMENT */);
  const start = (() => { for (let c = walker.nextNode(); c; c = walker.nextNode()) if (/\[if !supportLists\]/i.test(c.nodeValue ?? '')) return c; return null; })();
  if (!start) return text;
  let node: Node | null = start.nextSibling;
  // The end marker is a sibling of the start marker in Word's output.
  while (node && !(node.nodeType === 8 && /\[endif\]/i.test(node.nodeValue ?? ''))) {
    const next: Node | null = node.nextSibling;
    text += node.textContent ?? '';
    node.parentNode?.removeChild(node);
    node = next;
  }
  return text.replace(/\u00a0/g, ' ');
}

/** Pasted HTML (from Word, Google Docs or a web page) cleaned for the editor: structure kept (headings,
 * paragraphs, lists, links, bold/italic/underline/strike, code, images with a safe URL), tables and layout
 * containers turned into paragraphs, and the look of the source dropped (every class and style, Word's
 * <o:p>, comments, conditional comments, <style> and <meta>). The result is allowlisted by sanitizeWysiwyg. */
export function cleanPastedHtml(html: string): string {
  // DOMParser builds an inert document: nothing in it runs or loads.
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const body = doc.body;
  convertWordLists(body);
  // Google Docs wraps everything in <b style="font-weight:normal" id="docs-internal-guid-...">.
  for (const b of [...body.querySelectorAll('b[id^="docs-internal-guid"]')]) unwrap(b);
  // Bold/italic/underline/strike written as styled spans (Google Docs, some editors) become real marks.
  for (const span of [...body.querySelectorAll('span[style]')]) {
    const style = span.getAttribute('style') ?? '';
    let inner: Element = span;
    const wrap = (tag: string) => { const el = doc.createElement(tag); while (inner.firstChild) el.appendChild(inner.firstChild); inner.appendChild(el); inner = el; };
    if (/font-weight:\s*(bold|[6-9]00)/i.test(style)) wrap('strong');
    if (/font-style:\s*italic/i.test(style)) wrap('em');
    if (/text-decoration[^;]*underline/i.test(style)) wrap('u');
    if (/text-decoration[^;]*line-through/i.test(style)) wrap('s');
  }
  for (const el of [...body.querySelectorAll('*')].reverse()) {
    const tag = el.localName;
    if (tag.includes(':')) { unwrap(el); continue; } // <o:p>, <w:sdt>, <v:shape>...
    if (paragraphLike.has(tag)) { if (hasBlockChild(el)) unwrap(el); else rename(el, 'p'); continue; }
    if (unwrapped.has(tag)) unwrap(el);
  }
  for (const el of [...body.querySelectorAll('[class], [style]')]) {
    // Code keeps its language-* class (a code block's language); everything else loses its look.
    const lang = (el.getAttribute('class') ?? '').split(/\s+/).filter((c) => /^language-[\w-]+$/.test(c));
    el.removeAttribute('style');
    if (lang.length && (el.localName === 'code' || el.localName === 'pre')) el.setAttribute('class', lang.join(' '));
    else el.removeAttribute('class');
  }
  return sanitizeWysiwyg(body.innerHTML);
}
