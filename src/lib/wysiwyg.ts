import { createRequire } from 'node:module';
import type sanitizeHtmlType from 'sanitize-html';

// sanitize-html brings postcss and htmlparser2 (about a hundred modules): loaded on the first
// answer to clean, not by every CLI command that loads the engine.
const require = createRequire(import.meta.url);
let loaded: typeof sanitizeHtmlType | null = null;

const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/**
 * The contract's wysiwyg allowlist (service-interface.md, "Rich text (wysiwyg) content"): the tags
 * and attributes the admin editor keeps. Everything else is dropped (scripts and styles with their
 * contents); links and images keep http(s), mailto and tel addresses only.
 */
const allowlist: sanitizeHtmlType.IOptions = {
  allowedTags: ['p', ...headings, 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'a', 'span', 'img'],
  allowedAttributes: {
    a: ['href', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ...Object.fromEntries(['span', 'p', ...headings, 'blockquote'].map((t) => [t, ['class', 'style']])),
    ...Object.fromEntries(['pre', 'code', 'ul', 'ol', 'li'].map((t) => [t, ['class']])),
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** HTML from an untrusted source (a model's answer) cut down to the wysiwyg allowlist. */
export function sanitizeWysiwyg(html: string): string {
  // The CommonJS module whose type is imported above.
  const sanitizeHtml: typeof sanitizeHtmlType = (loaded ??= require('sanitize-html'));
  return sanitizeHtml(html, allowlist).trim();
}
