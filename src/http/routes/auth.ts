import { getRequestIP } from 'h3';
import type { RequestContext, RouteDef } from '../route.js';
import { checkCsrf, readCookie, sessionCookieName } from '../auth.js';
import { clientAddress } from '../client-address.js';
import { json } from '../response.js';

interface LoginResult {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string };
}

/** `Secure` whenever the server is reached (or published) over https. */
const isHttps = (rc: RequestContext) => rc.url.protocol === 'https:' || rc.cms.config.baseUrl.startsWith('https:');

function sessionCookie(rc: RequestContext, value: string, maxAgeSeconds: number): string {
  const parts = [`${sessionCookieName}=${encodeURIComponent(value)}`, 'HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${maxAgeSeconds}`];
  if (isHttps(rc)) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Sign-in for the admin API. The session token travels only in the HttpOnly cookie, never in a
 * response body, so page scripts cannot read it.
 */
export const authRoutes: RouteDef[] = [
  {
    method: 'POST', path: '/api/v1/admin/auth/login', auth: 'none',
    async handle(rc) {
      checkCsrf(rc.cms, rc.req, { always: true });
      const body = (await rc.body()) as Record<string, unknown>;
      const ip = clientAddress(rc.cms.config.trustProxy, getRequestIP(rc.event), rc.headers.get('x-forwarded-for'));
      const result = await rc.run('auth.login', { email: body?.email, password: body?.password, ...(ip ? { ip } : {}) }) as LoginResult;
      const maxAge = Math.max(0, Math.floor((Date.parse(result.expiresAt) - rc.cms.clock.now().getTime()) / 1000));
      return json({ data: { user: result.user, expiresAt: result.expiresAt } }, 200, {
        'set-cookie': sessionCookie(rc, result.token, maxAge),
        'cache-control': 'no-store',
      });
    },
  },
  {
    method: 'POST', path: '/api/v1/admin/auth/logout', auth: 'none',
    async handle(rc) {
      checkCsrf(rc.cms, rc.req);
      const token = readCookie(rc.headers, sessionCookieName);
      if (token) await rc.run('auth.logout', { token });
      return json({ success: true }, 200, { 'set-cookie': sessionCookie(rc, '', 0), 'cache-control': 'no-store' });
    },
  },
  {
    method: 'GET', path: '/api/v1/admin/auth/me', auth: 'none',
    async handle(rc) {
      const token = readCookie(rc.headers, sessionCookieName) ?? '';
      return json({ data: await rc.run('auth.me', { token }) }, 200, { 'cache-control': 'no-store' });
    },
  },
];
