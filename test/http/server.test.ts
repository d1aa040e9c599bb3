import { request } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/http/node-server.js';
import { json } from '../../src/http/response.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveInProcess, serveOverSocket } from '../helpers/http.js';
import { rawExchange, rawRequest, type RawAnswer } from './raw.js';

const password = 'correct horse battery staple';

const errorOf = (a: RawAnswer) => JSON.parse(a.body.toString('utf8')) as { error: { code: string; message: string; details?: unknown } };

describe('the HTTP server at its edge', () => {
  let t: TestCms;
  let server: Awaited<ReturnType<typeof serveOverSocket>>;
  let port: number;
  let keys: { public: string; secret: string };
  let cookie: string;

  beforeAll(async () => {
    t = await createTestCms();
    await t.run('schema.push', {
      pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [{ name: 'title', type: 'text' }] } }],
      collections: [], components: [],
    });
    keys = {
      public: (await t.run('keys.create', { type: 'public' })).key,
      secret: (await t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key,
    };
    await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', status: 'published', fields: { title: 'Home' } });
    await t.run('users.create', { email: 'owner@example.test', password, role: 'owner' });
    server = await serveOverSocket(t.cms);
    port = server.server.port;
    const login = await server.fetch('/api/v1/admin/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.test', password }),
    });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const send = (method: string, target: string, headers: Array<[string, string]> = [], body?: string, options: { chunked?: boolean } = {}) =>
    rawExchange(port, rawRequest(method, target, [['Host', `127.0.0.1:${port}`], ['Connection', 'close'], ...headers], body, options));

  describe('HEAD', () => {
    const exchange = (method: string, path: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers: { 'x-api-key': keys.public, ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { body += chunk; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });

    it('answers HEAD as the GET of the same URL, without the body: status, ETag, Cache-Control and Content-Length alike', async () => {
      for (const path of ['/api/v1/pages/home', '/api/v1/pages', '/api/v1/pages?limit=5', '/api/v1/health', '/api/v1/pages/nope']) {
        // Twice: the first may be answered by the route, the second from the cache.
        for (let round = 0; round < 2; round++) {
          const head = await exchange('HEAD', path);
          const get = await exchange('GET', path);
          expect(head.status, path).toBe(get.status);
          expect(get.body.length, path).toBeGreaterThan(0);
          expect(head.body, path).toBe('');
          for (const name of ['etag', 'cache-control', 'content-type', 'content-length', 'vary']) expect(head.headers[name], `${path} ${name}`).toEqual(get.headers[name]);
        }
      }
      const etag = String((await exchange('GET', '/api/v1/pages/home')).headers.etag);
      expect((await exchange('HEAD', '/api/v1/pages/home', { 'if-none-match': etag })).status).toBe(304);
      expect((await exchange('HEAD', '/api/v1/pages/home', { 'x-api-key': 'svc_pk_nope' })).status).toBe(401);
    });
  });

  describe('a request the URL parser refuses', () => {
    it('answers a Host with a port beyond 65535 (and dot segments) with 400 and lives on', async () => {
      const a = await rawExchange(port, 'GET /api/v1/a/../health HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n');
      expect(a.status).toBe(400);
      expect(errorOf(a).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Host') });
      const plain = await rawExchange(port, 'GET /api/v1/health HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n');
      expect(plain.status).toBe(400);
      expect((await server.fetch('/api/v1/health')).status).toBe(200);
    });

    it('answers an HTTP/1.1 request without Host with 400 in the JSON error shape', async () => {
      const a = await rawExchange(port, 'GET /api/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(a.status).toBe(400);
      expect(errorOf(a).error.code).toBe('BAD_REQUEST');
    });
  });

  describe('what Node\'s HTTP parser refuses gets the JSON error shape', () => {
    it('a header with a control character: 400', async () => {
      const a = await send('GET', '/api/v1/health', [['X-Bad', 'a\u0001b']]);
      expect(a.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(a.headers['content-type']).toMatch(/^application\/json/);
      expect(errorOf(a).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('not valid HTTP') });
    });

    it('headers over 16 KB: 431', async () => {
      const a = await send('GET', '/api/v1/health', [['X-Big', 'a'.repeat(17 * 1024)]]);
      expect(a.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(errorOf(a).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('16 KB') });
    });

    it('a chunked body whose chunk size is not hex: 400', async () => {
      const a = await rawExchange(port, `POST /api/v1/pages HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`);
      expect(a.status).toBe(400);
      expect(errorOf(a).error.code).toBe('BAD_REQUEST');
    });

    it('CONNECT: 405, not a closed connection', async () => {
      const a = await rawExchange(port, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
      expect(a.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(errorOf(a).error.code).toBe('BAD_REQUEST');
    });
  });

  describe('reason phrases', () => {
    it('h3 answers carry the standard one', async () => {
      const missing = await send('GET', '/api/v1/no-such-route');
      expect(missing.statusLine).toBe('HTTP/1.1 404 Not Found');
      const unauthorized = await send('GET', '/api/v1/pages');
      expect(unauthorized.statusLine).toBe('HTTP/1.1 401 Unauthorized');
      const ok = await send('GET', '/api/v1/health');
      expect(ok.statusLine).toBe('HTTP/1.1 200 OK');
    });

    it('the fast path (a cached read, and its 304) carries it too', async () => {
      const read = () => send('GET', '/api/v1/pages/home', [['X-API-Key', keys.public]]);
      await read();
      const hit = await read();
      expect(hit.statusLine).toBe('HTTP/1.1 200 OK');
      const notModified = await send('GET', '/api/v1/pages/home', [['X-API-Key', keys.public], ['If-None-Match', hit.headers.etag!]]);
      expect(notModified.statusLine).toBe('HTTP/1.1 304 Not Modified');
    });
  });

  describe('JSON bodies are counted as they arrive', () => {
    it('a chunked body without Content-Length is cut off at the 16 MB limit, not read whole first', async () => {
      const limit = 16 * 1024 * 1024;
      const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
        let sent = 0;
        let answered = false;
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/admin/auth/login', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          answered = true;
          res.resume();
          resolve({ status: res.statusCode!, sent });
        });
        req.on('error', (e) => { if (!answered) reject(e); });
        // Up to 200 MB, as fast as the server takes them, until it answers.
        const pump = () => {
          while (!answered && sent < 200 * 1024 * 1024) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!answered) req.end();
        };
        pump();
      });
      expect(status).toBe(413);
      // What the server read, plus what the socket buffers held: far below the 200 MB on offer.
      expect(sent).toBeLessThan(limit + 16 * 1024 * 1024);
      expect((await server.fetch('/api/v1/health')).status).toBe(200);
    }, 60_000);

    it('a 20 MB body with its Content-Length is refused with 413 before the client has sent it all', async () => {
      const total = 20 * 1024 * 1024;
      const { status, body, sent } = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
        let sent = 0;
        let answered = false;
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/admin/auth/login', headers: { 'content-type': 'application/json', 'content-length': String(total) } }, (res) => {
          answered = true;
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString('utf8'), sent }));
        });
        req.on('error', (e) => { if (!answered) reject(e); });
        // A slow client: 64 KB every 5 ms, so the whole body would take over 1.5 s to arrive.
        const pump = () => {
          if (answered) return void req.destroy();
          if (sent >= total) return void req.end();
          sent += chunk.length;
          req.write(chunk);
          setTimeout(pump, 5);
        };
        pump();
      });
      expect(status).toBe(413);
      expect(JSON.parse(body).error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(sent).toBeLessThan(total);
      expect((await server.fetch('/api/v1/health')).status).toBe(200);
    }, 60_000);

    it('a body without a length is read only up to the limit: 20 MB on offer, at most 16 MB and a chunk taken', async () => {
      const limit = 16 * 1024 * 1024;
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 20 * 1024 * 1024) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const app = serveInProcess(t.cms);
      const init: RequestInit & { duplex: 'half' } = { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' };
      const res = await app.fetch('/api/v1/admin/auth/login', init);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
      expect(pulled).toBeLessThanOrEqual(limit + 2 * chunk.byteLength);
    });

    it('a body within the limit sent chunked still reads as JSON', async () => {
      const a = await send('POST', '/api/v1/admin/auth/login', [['Content-Type', 'application/json']], JSON.stringify({ email: 'owner@example.test', password: 'wrong' }), { chunked: true });
      expect(a.status).toBe(401);
    });
  });

  describe('400, never 500', () => {
    it('a session cookie with bad percent-encoding is an invalid session (401) on every session route; logging out clears it', async () => {
      for (const [method, path] of [['GET', '/api/v1/admin/auth/me'], ['GET', '/api/v1/admin/pages'], ['POST', '/api/v1/admin/pages']] as const) {
        const a = await send(method, path, [['Cookie', 'cms_session=%'], ['Content-Type', 'application/json']], method === 'POST' ? '{}' : undefined);
        expect(a.status, `${method} ${path}`).toBe(401);
        expect(errorOf(a).error).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('cms_session') });
      }
      const logout = await send('POST', '/api/v1/admin/auth/logout', [['Cookie', 'cms_session=%'], ['Content-Type', 'application/json']], '{}');
      expect(logout.status).toBe(200);
      expect(logout.headers['set-cookie']).toMatch(/^cms_session=;/);
      // Signing in is not blocked by such a cookie: it sets a new one.
      const login = await send('POST', '/api/v1/admin/auth/login', [['Cookie', 'cms_session=%'], ['Content-Type', 'application/json']], JSON.stringify({ email: 'owner@example.test', password }));
      expect(login.status).toBe(200);
    });

    it('a path whose percent-encoding is not valid UTF-8 names nothing: 404 NOT_FOUND, on public and admin routes', async () => {
      for (const path of ['/api/v1/pages/%zz', '/api/v1/pages/%ED%A0%80', '/api/v1/pages/%E0%A4%A', '/api/v1/pages/%', '/api/v1/collections/%zz', '/api/v1/collections/products/%zz', '/api/v1/admin/pages/%zz']) {
        const a = await send('GET', path, [['X-API-Key', keys.public]]);
        expect(a.status, path).toBe(404);
        expect(errorOf(a).error, path).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('percent-encoding') });
      }
    });

    it('a NUL character in a path, a filter, a JSON string or a sign-in email', async () => {
      const inPath = await send('GET', '/api/v1/pages/%00', [['X-API-Key', keys.public]]);
      expect(inPath.status).toBe(400);
      expect(errorOf(inPath).error.message).toContain('NUL');

      const inFilter = await send('GET', '/api/v1/pages?filter[pageTypeId]=a%00b', [['X-API-Key', keys.public]]);
      expect(inFilter.status).toBe(400);
      expect(errorOf(inFilter).error).toMatchObject({ code: 'INVALID_QUERY', details: { parameter: 'filter[pageTypeId]' } });
      // An admin list names the parameter as the URL does, not by its place in the input (query.search).
      const inSearch = await send('GET', '/api/v1/admin/pages?search=a%00', [['Cookie', cookie]]);
      expect(inSearch.status).toBe(400);
      expect(errorOf(inSearch).error).toMatchObject({ code: 'INVALID_QUERY', details: { parameter: 'search' } });

      const inBody = await send('POST', '/api/v1/pages', [['X-API-Key', keys.secret], ['Idempotency-Key', 'nul-1'], ['Content-Type', 'application/json']],
        JSON.stringify({ pageTypeSlug: 'landing', name: 'a\u0000b', slug: 'nul' }));
      expect(inBody.status).toBe(400);
      expect(errorOf(inBody).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'name', message: expect.stringContaining('NUL') }] });

      const inField = await send('POST', '/api/v1/admin/pages', [['Cookie', cookie], ['Content-Type', 'application/json']],
        JSON.stringify({ pageTypeSlug: 'landing', name: 'N', slug: 'nul-field', fields: { title: 'x\u0000' } }));
      expect(inField.status).toBe(400);
      expect(errorOf(inField).error.details).toEqual([{ path: 'fields.title', message: expect.stringContaining('NUL') }]);

      const inEmail = await send('POST', '/api/v1/admin/auth/login', [['Content-Type', 'application/json']], JSON.stringify({ email: 'owner\u0000@example.test', password }));
      expect(inEmail.status).toBe(400);
      expect(errorOf(inEmail).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'email' }] });
    });

    it('the terminal door refuses a NUL character the same way', async () => {
      await expect(t.run('pages.create', { pageTypeSlug: 'landing', name: 'a\u0000b', slug: 'nul-cli' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED', details: [{ path: 'name', message: expect.stringContaining('NUL') }],
      });
    });

    it('a page number beyond the limit on blog tags, categories and authors', async () => {
      for (const list of ['tags', 'categories', 'authors', 'posts']) {
        const a = await send('GET', `/api/v1/blog/${list}?page=99999999999999999999`, [['X-API-Key', keys.public]]);
        expect(a.status, list).toBe(400);
        expect(errorOf(a).error).toMatchObject({ code: 'INVALID_QUERY', details: { parameter: 'page' } });
      }
    });
  });

  describe('listening and closing', () => {
    it('a taken port is an error that names the address, never another port', async () => {
      const squatter = createNetServer();
      await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
      const taken = (squatter.address() as { port: number }).port;
      try {
        await expect(startServer(t.cms, { port: taken, host: '127.0.0.1' })).rejects.toMatchObject({
          code: 'CONFLICT', message: expect.stringMatching(new RegExp(`Address in use: 127\\.0\\.0\\.1:${taken} .*--port 0`)),
        });
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
    });

    it('port 0 takes any free port', async () => {
      const other = await startServer(t.cms, { port: 0, host: '127.0.0.1' });
      try {
        expect(other.port).toBeGreaterThan(0);
        expect(other.url).toBe(`http://127.0.0.1:${other.port}`);
        expect((await fetch(`${other.url}/api/v1/health`)).status).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('keeps an idle keep-alive connection 65 s, above a load balancer\'s 60 s idle timeout', async () => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => { received += chunk; });
      const answers = () => received.split('HTTP/1.1 ').slice(1);
      const ask = () => socket.write(`GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      try {
        ask();
        await expect.poll(() => answers().length).toBe(1);
        // Clients and load balancers read this: the server keeps an idle connection 65 s (Node's default is 5).
        expect(answers()[0]).toMatch(/^200 [\s\S]*\r\nKeep-Alive: timeout=65\r\n/i);
        // The same connection answers the next request.
        await new Promise((resolve) => setTimeout(resolve, 100));
        ask();
        await expect.poll(() => answers().length).toBe(2);
        expect(answers()[1]).toMatch(/^200 /);
      } finally {
        socket.destroy();
      }
    });

    it('close() lets a request in flight finish, then resolves', async () => {
      let release: () => void = () => {};
      const own = await serveOverSocket(t.cms, {
        routes: [{ method: 'GET', path: '/api/v1/_test/slow', auth: 'none', handle: () => new Promise((resolve) => { release = () => resolve(json({ done: true })); }) }],
      });
      const inFlight = own.fetch('/api/v1/_test/slow');
      // An idle keep-alive connection beside it must not hold close() open.
      await own.fetch('/api/v1/health');
      await new Promise((resolve) => setTimeout(resolve, 100));
      let closed = false;
      const closing = own.close().then(() => { closed = true; });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closed).toBe(false);
      const released = Date.now();
      release();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: true });
      await closing;
      // Its connection ends with the answer: close() does not wait for a keep-alive timeout.
      expect(Date.now() - released).toBeLessThan(2000);
    });
  });
});
