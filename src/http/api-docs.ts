import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/*
 * `/api/docs`: a readable API reference of `GET /api/v1/openapi.json`, rendered in the browser by
 * Scalar (@scalar/api-reference's standalone bundle, served from node_modules: no CDN). The
 * document needs an API key of the project, so the page asks for one (or takes a public key as
 * `?api_key=`) and loads the document with it in a header.
 * The page runs no inline script; Scalar injects its own styles, so styles may be inline.
 */

export const apiDocsContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const headers = (contentType: string, cache: string): Record<string, string> => ({
  'content-type': contentType,
  'cache-control': cache,
  'content-security-policy': apiDocsContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
});

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>cms API reference</title>
<style>
#key-form { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; }
#key-form h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
#key-form label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
#key-form input { display: block; width: 100%; box-sizing: border-box; font: inherit; padding: .5rem .6rem; border: 1px solid #8c959f; border-radius: 6px; margin-top: .25rem; }
#key-form button { font: inherit; margin-top: .75rem; padding: .5rem 1rem; border: 0; border-radius: 6px; background: #1f6feb; color: #fff; cursor: pointer; }
#key-form :focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
#key-error { color: #b42318; overflow-wrap: anywhere; }
</style></head>
<body>
<form id="key-form" method="get" action="/api/docs" hidden>
<h1>cms API reference</h1>
<p>The reference describes this project's content types too, so it needs one of the project's API keys (public, preview or secret).</p>
<label>API key <input name="api_key" type="password" autocomplete="off" required></label> <button type="submit">Show the reference</button>
<p id="key-error" role="alert" hidden></p>
</form>
<div id="app"></div>
<script src="/api/docs/scalar.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>
`;

/**
 * Loads the document with the key in a header (a preview key in X-Preview-Key, any other in
 * X-API-Key: a secret key never goes in a URL), then renders it. A key typed into the form stays
 * in the page; `?api_key=` (a public key) is read from the address for a link to share.
 */
const init = `(function () {
  var form = document.getElementById('key-form');
  var problem = document.getElementById('key-error');
  function fail(message) {
    form.hidden = false;
    problem.textContent = 'The reference could not be loaded: ' + message;
    problem.hidden = false;
    form.elements.api_key.focus();
  }
  function show(key) {
    var preview = key.indexOf('preview_') === 0;
    fetch('/api/v1/openapi.json', { headers: preview ? { 'X-Preview-Key': key } : { 'X-API-Key': key } })
      .then(function (res) {
        return res.json().then(function (body) {
          if (!res.ok) throw new Error((body && body.error && body.error.message) || ('HTTP ' + res.status));
          return body;
        });
      })
      .then(function (doc) {
        form.hidden = true;
        var scheme = preview ? 'previewKey' : 'apiKey';
        var schemes = {};
        schemes[scheme] = { value: key };
        window.Scalar.createApiReference('#app', {
          content: doc,
          withDefaultFonts: false,
          hideClientButton: true,
          telemetry: false,
          showToolbar: 'never',
          showDeveloperTools: 'never',
          agent: { disabled: true },
          authentication: { preferredSecurityScheme: scheme, securitySchemes: schemes },
        });
      }, function (e) { fail(e.message); });
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var key = form.elements.api_key.value.trim();
    if (key) show(key);
  });
  var given = new URLSearchParams(location.search).get('api_key');
  if (given) show(given); else form.hidden = false;
})();
`;

let bundle: Promise<Buffer> | undefined;

/** The answer for GET /api/docs, /api/docs/init.js or /api/docs/scalar.js; null for any other path. */
export async function serveApiDocs(pathname: string): Promise<Response | null> {
  if (pathname === '/api/docs' || pathname === '/api/docs/') {
    return new Response(page, { headers: headers('text/html; charset=utf-8', 'no-cache') });
  }
  if (pathname === '/api/docs/init.js') return new Response(init, { headers: headers('text/javascript; charset=utf-8', 'no-cache') });
  if (pathname === '/api/docs/scalar.js') {
    bundle ??= readFile(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'));
    const bytes = await bundle;
    return new Response(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { headers: headers('text/javascript; charset=utf-8', 'public, max-age=3600') });
  }
  return null;
}
