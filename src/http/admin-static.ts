import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { packageFile } from '../lib/package-files.js';

/**
 * The admin web app (src/admin, built by Vite into dist/admin) served at /admin. The server never
 * imports the app's code: it only reads the built files. `/admin/assets/*` are content-hashed
 * (immutable, cached for a year); every other path under /admin answers index.html (the app's
 * client routes), never cached. Without a build, a 503 page says how to make one.
 */

/** dist/admin beside the package's dist/: this file is two folders below the root as src/http/ and as dist/http/. */
export const defaultAdminDir = packageFile('dist/admin/');

/** No inline script, no inline style attribute, nothing from elsewhere; the API is same-origin. */
export const adminContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: Record<string, string> = {
  'content-security-policy': adminContentSecurityPolicy,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Admin app not built</title></head>
<body><h1>The admin app is not built</h1>
<p>This server has no <code>dist/admin/</code>. Build it with <code>npm run build</code> (or <code>npm install</code>, which builds), then reload.</p>
<p>The admin API at <code>/api/v1/admin/</code> works without it.</p></body></html>
`;

/** The answer for a GET or HEAD of `pathname` (which starts with /admin). */
export async function serveAdmin(pathname: string, adminDir: string = defaultAdminDir, head = false): Promise<Response> {
  const index = join(adminDir, 'index.html');
  const indexInfo = await stat(index).catch(() => null);
  if (!indexInfo) {
    return new Response(head ? null : notBuiltPage, {
      status: 503,
      headers: { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '60' },
    });
  }
  if (pathname === '/admin') {
    return new Response(null, { status: 308, headers: { ...securityHeaders, location: '/admin/' } });
  }
  const rest = pathname.slice('/admin/'.length);
  if (rest.startsWith('assets/')) {
    let decoded: string;
    try { decoded = decodeURIComponent(rest); } catch { return notFound(); }
    const file = normalize(join(adminDir, decoded));
    // Never outside the assets folder (`..`, encoded or not).
    if (!file.startsWith(join(adminDir, 'assets') + sep)) return notFound();
    const body = await readFile(file).catch(() => null);
    if (!body) return notFound();
    return new Response(head ? null : body, {
      status: 200,
      headers: {
        ...securityHeaders,
        'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'content-length': String(body.byteLength),
        'cache-control': 'public, max-age=31536000, immutable',
      },
    });
  }
  const body = await readFile(index);
  return new Response(head ? null : body, {
    status: 200,
    headers: { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
  });
}

function notFound(): Response {
  return new Response('Not found\n', {
    status: 404,
    headers: { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
