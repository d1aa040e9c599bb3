import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/*
 * `/api/docs`: a readable API reference of `GET /api/v1/openapi.json`, rendered in the browser by
 * Scalar (@scalar/api-reference's standalone bundle, served from node_modules: no CDN). The
 * document needs an API key of the project, so the page asks for one (or takes `?api_key=`).
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
<title>cms API reference</title></head>
<body>
<form id="key-form" method="get" action="/api/docs" hidden>
<h1>cms API reference</h1>
<p>The reference describes this project's content types too, so it needs one of the project's API keys (public, preview or secret).</p>
<label>API key <input name="api_key" autocomplete="off" required></label> <button type="submit">Show the reference</button>
</form>
<div id="app"></div>
<script src="/api/docs/scalar.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>
`;

const init = `(function () {
  var key = new URLSearchParams(location.search).get('api_key');
  if (!key) { document.getElementById('key-form').hidden = false; return; }
  window.Scalar.createApiReference('#app', {
    url: '/api/v1/openapi.json?api_key=' + encodeURIComponent(key),
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    showToolbar: 'never',
    showDeveloperTools: 'never',
    agent: { disabled: true },
    authentication: { preferredSecurityScheme: 'apiKey', securitySchemes: { apiKey: { value: key } } },
  });
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
