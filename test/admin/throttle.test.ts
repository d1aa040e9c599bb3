import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCms } from '../../src/runtime.js';
import { testDriver } from '../helpers/db.js';
import { serveOverSocket } from '../helpers/http.js';
import { createAdminHarness, password, type AdminHarness, type JsonResponse } from './support.js';

const loginAt = (fetcher: { fetch(path: string, init?: RequestInit): Promise<Response> }, email: string, pw: string, forwardedFor?: string): Promise<JsonResponse> =>
  fetcher.fetch('/api/v1/admin/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ email, password: pw }),
  }) as Promise<JsonResponse>;
const login = (h: AdminHarness, email: string, pw: string, forwardedFor?: string) => loginAt(h, email, pw, forwardedFor);

const countOf = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('failed sign-ins are slowed down (server.trustProxy: 0, the socket address is the client\'s)', () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await createAdminHarness({ config: { trustProxy: 0 } });
    await h.createUser('editor', { email: 'ann@example.test' });
    await h.createUser('editor', { email: 'bob@example.test' });
    await h.createUser('editor', { email: 'carol@example.test' });
  });
  afterAll(async () => { await h.close(); });

  it('refuses an account for a while after five failures, with Retry-After, even with the right password', async () => {
    for (let i = 0; i < 5; i++) {
      h.clock.advance(60_000);
      expect((await login(h, 'ann@example.test', 'wrong')).status).toBe(401);
    }
    const refused = await login(h, 'ann@example.test', password);
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body.error.code).toBe('RATE_LIMITED');
    // The first failure was 4 minutes ago: it leaves the 15-minute window in 11 minutes.
    expect(refused.headers.get('retry-after')).toBe('660');
    expect(body.error.details).toEqual({ retryAfter: 660 });

    h.clock.advance(659_000);
    expect((await login(h, 'ann@example.test', password)).status).toBe(429);
    h.clock.advance(1000);
    expect((await login(h, 'ann@example.test', password)).status).toBe(200);
  });

  it('a successful sign-in clears the account\'s count', async () => {
    h.clock.advance(3600_000);
    for (let i = 0; i < 4; i++) expect((await login(h, 'ann@example.test', 'wrong')).status).toBe(401);
    expect((await login(h, 'ann@example.test', password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(h, 'ann@example.test', 'wrong')).status).toBe(401);
    expect((await login(h, 'ann@example.test', password)).status).toBe(200);
  });

  it('answers an unknown email exactly like a known one, throttling included', async () => {
    h.clock.advance(3600_000);
    const known: Array<[number, unknown]> = [];
    const unknown: Array<[number, unknown]> = [];
    for (let i = 0; i < 6; i++) {
      const a = await login(h, 'ann@example.test', 'wrong');
      known.push([a.status, await a.json()]);
      const b = await login(h, 'ghost@example.test', 'wrong');
      unknown.push([b.status, await b.json()]);
    }
    expect(unknown).toEqual(known);
    expect(known.map(([s]) => s)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('slows down one address trying many accounts, but not an account that signed in from it before', async () => {
    h.clock.advance(3600_000);
    // 20 failures from this address, spread over accounts so no single account is limited.
    for (let i = 0; i < 20; i++) {
      expect((await login(h, `spray-${i}@example.test`, 'wrong')).status).toBe(401);
    }
    const refused = await login(h, 'bob@example.test', password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(900);
    expect((await login(h, 'spray-99@example.test', 'wrong')).status).toBe(429);
    // Ann has signed in from this address: the others' failures there do not lock her out.
    expect((await login(h, 'ann@example.test', password)).status).toBe(200);
    h.clock.advance(900_000);
    expect((await login(h, 'bob@example.test', password)).status).toBe(200);
  });

  it('counts attempts sent at once before checking any password: 100 wrong at once give at most 5 × 401, then the right one is refused', async () => {
    h.clock.advance(3600_000);
    let firstRefusal!: () => void;
    const refusedOnce = new Promise<void>((resolve) => { firstRefusal = resolve; });
    const wrong = Array.from({ length: 100 }, () => login(h, 'carol@example.test', 'wrong').then((r) => {
      if (r.status === 429) firstRefusal();
      return r.status;
    }));
    // The right password arrives while the wrong ones are still being answered, once the limit is reached.
    const right = refusedOnce.then(() => login(h, 'carol@example.test', password));
    const statuses = await Promise.all(wrong);
    expect(countOf(statuses, 401)).toBe(5);
    expect(countOf(statuses, 429)).toBe(95);
    const rightAnswer = await right;
    expect(rightAnswer.status).toBe(429);
    expect((await rightAnswer.json()).error.code).toBe('RATE_LIMITED');
    expect(Number(rightAnswer.headers.get('retry-after'))).toBe(900);
    expect((await login(h, 'carol@example.test', password)).status).toBe(429);
    h.clock.advance(900_000);
    expect((await login(h, 'carol@example.test', password)).status).toBe(200);
  });

  it('holds across server processes sharing one database: 2 × 50 wrong passwords at once give at most 5 × 401', async () => {
    h.clock.advance(3600_000);
    // A second engine on the same database (its own process state, its own socket).
    const other = testDriver === 'postgres'
      ? await createCms(h.t.config, { clock: h.clock })
      : await createCms(h.t.config, { clock: h.clock, handle: h.t.cms.handle });
    const otherHttp = await serveOverSocket(other);
    try {
      const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) =>
        loginAt(i % 2 ? otherHttp : h, 'carol@example.test', 'wrong').then((r) => r.status)));
      expect(countOf(statuses, 401)).toBe(5);
      expect(countOf(statuses, 429)).toBe(95);
      expect((await loginAt(otherHttp, 'carol@example.test', password)).status).toBe(429);
    } finally {
      await otherHttp.close();
      await other.close();
    }
  });
});

describe('sign-in behind a proxy', () => {
  it('without server.trustProxy, failures are not counted per address: many people behind one proxy are not locked out', async () => {
    const h = await createAdminHarness();
    try {
      await h.createUser('editor', { email: 'ann@example.test' });
      for (let i = 0; i < 30; i++) expect((await login(h, `spray-${i}@example.test`, 'wrong')).status).toBe(401);
      expect((await login(h, 'ann@example.test', password)).status).toBe(200);
      // The account limit still holds.
      for (let i = 0; i < 5; i++) expect((await login(h, 'ann@example.test', 'wrong')).status).toBe(401);
      expect((await login(h, 'ann@example.test', password)).status).toBe(429);
    } finally {
      await h.close();
    }
  });

  describe('with server.trustProxy: 1, the client is the right-most X-Forwarded-For entry', () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await createAdminHarness({ config: { trustProxy: 1 } });
      for (const name of ['dave', 'erin', 'frank']) await h.createUser('editor', { email: `${name}@example.test` });
    });
    afterAll(async () => { await h.close(); });

    it('counts each client behind the proxy on its own, whatever the client writes to the left', async () => {
      // The client's own X-Forwarded-For entries change every time: only the proxy's entry counts.
      for (let i = 0; i < 20; i++) {
        expect((await login(h, `spray-${i}@example.test`, 'wrong', `10.0.0.${i}, 203.0.113.5`)).status).toBe(401);
      }
      const refused = await login(h, 'erin@example.test', password, '198.51.100.77, 203.0.113.5');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBe(900);
      // Another client behind the same proxy is not affected.
      expect((await login(h, 'erin@example.test', password, '203.0.113.6')).status).toBe(200);
    });

    it('never locks out an owner who signed in from the address before, while strangers there stay refused', async () => {
      h.clock.advance(3600_000);
      expect((await login(h, 'dave@example.test', password, '203.0.113.9')).status).toBe(200);
      h.clock.advance(3600_000);
      for (let i = 0; i < 20; i++) expect((await login(h, `spray-${i}@example.test`, 'wrong', '203.0.113.9')).status).toBe(401);
      expect((await login(h, 'frank@example.test', password, '203.0.113.9')).status).toBe(429);
      expect((await login(h, 'dave@example.test', password, '203.0.113.9')).status).toBe(200);
      // The attack goes on; the window has passed for dave's own count: he still gets in.
      h.clock.advance(900_000);
      for (let i = 0; i < 20; i++) expect((await login(h, `spray-b${i}@example.test`, 'wrong', '203.0.113.9')).status).toBe(401);
      expect((await login(h, 'frank@example.test', password, '203.0.113.9')).status).toBe(429);
      expect((await login(h, 'dave@example.test', password, '203.0.113.9')).status).toBe(200);
      // His account keeps its own limit all the same.
      for (let i = 0; i < 5; i++) expect((await login(h, 'dave@example.test', 'wrong', '203.0.113.9')).status).toBe(401);
      expect((await login(h, 'dave@example.test', password, '203.0.113.9')).status).toBe(429);
    });
  });
});
