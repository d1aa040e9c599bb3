import { getRequestIP, setCookie } from 'h3';
import { checkCsrf, readCookie, sessionCookieName } from '../auth.js';
import { clientAddress } from '../client-address.js';
import { json } from '../response.js';
import { bodyObject, type RequestContext, type RouteDef } from '../route.js';

/** `Secure` whenever the server is reached (or published) over https. */
const isHttps = (rc: RequestContext) => rc.url.protocol === 'https:' || rc.cms.config.baseUrl.startsWith('https:');

/** The session cookie on this answer: HttpOnly, SameSite=Lax, the whole site, `maxAgeSeconds` long (0 clears it). */
function setSessionCookie(rc: RequestContext, value: string, maxAgeSeconds: number): void {
  setCookie(rc.event, sessionCookieName, value, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: maxAgeSeconds, secure: isHttps(rc) });
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
      const body = await bodyObject(rc);
      const ip = clientAddress(rc.cms.config.trustProxy, getRequestIP(rc.event), rc.headers.get('x-forwarded-for'));
      const result = await rc.run('auth.login', { email: body.email, password: body.password, ...(ip ? { ip } : {}) });
      const maxAge = Math.max(0, Math.round((Date.parse(result.expiresAt) - rc.cms.clock.now().getTime()) / 1000));
      setSessionCookie(rc, result.token, maxAge);
      return json({ data: { user: result.user, expiresAt: result.expiresAt } }, 200, { 'cache-control': 'no-store' });
    },
  },
  {
    method: 'POST', path: '/api/v1/admin/auth/logout', auth: 'none', doc: { session: true },
    async handle(rc) {
      checkCsrf(rc.cms, rc.req);
      // A cookie that is not even valid percent-encoding names no session: it is cleared all the same.
      let token: string | null = null;
      try { token = readCookie(rc.headers, sessionCookieName); } catch { /* cleared below */ }
      if (token) await rc.run('auth.logout', { token });
      setSessionCookie(rc, '', 0);
      return json({ success: true }, 200, { 'cache-control': 'no-store' });
    },
  },
  {
    method: 'GET', path: '/api/v1/admin/auth/me', auth: 'none', doc: { session: true },
    async handle(rc) {
      const token = readCookie(rc.headers, sessionCookieName) ?? '';
      return json({ data: await rc.run('auth.me', { token }) }, 200, { 'cache-control': 'no-store' });
    },
  },
];
