import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, password, type AdminHarness } from './support.js';

const login = (h: AdminHarness, email: string, pw: string) => h.fetch('/api/v1/admin/auth/login', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: pw }),
});

describe('failed sign-ins are slowed down', () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await createAdminHarness();
    await h.createUser('editor', { email: 'ann@example.test' });
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

  it('slows down one address trying many accounts', async () => {
    h.clock.advance(3600_000);
    // 20 failures from this address, spread over accounts so no single account is limited.
    for (let i = 0; i < 20; i++) {
      expect((await login(h, `spray-${i}@example.test`, 'wrong')).status).toBe(401);
    }
    const refused = await login(h, 'ann@example.test', password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(900);
    h.clock.advance(900_000);
    expect((await login(h, 'ann@example.test', password)).status).toBe(200);
  });
});
