import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs, type RunningJobs } from '../../src/background-jobs.js';
import { createCms, type Cms } from '../../src/runtime.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { webhookJobs } from '../../src/webhooks/delivery-jobs.js';
import { testDriver } from '../helpers/db.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { emitEvents } from './emit.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * A second engine on the same database: on PostgreSQL its own connection pool (as another
 * process would have), on PGlite the same open database (one process may hold it).
 */
async function secondEngine(t: TestCms): Promise<Cms> {
  return testDriver === 'postgres' ? createCms(t.config) : createCms(t.config, { handle: t.cms.handle });
}

describe('dispatchers on one database', () => {
  let t: TestCms;
  let other: Cms;
  beforeAll(async () => {
    t = await createTestCms();
    other = await secondEngine(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('two dispatchers racing over 500 deliveries send each exactly once', async () => {
    const seen = new Map<string, number>();
    const r = await startReceiver((got, res) => {
      const id = got.headers['x-webhook-delivery-id'] as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      // Answers come back in a jumbled order, so the two dispatchers' claims interleave.
      setTimeout(() => res.writeHead(200).end(), Math.floor(Math.random() * 4));
    });
    try {
      await t.run('webhooks.create', { url: r.url, events: ['collection_item.published'] });
      await t.run(emitEvents as never, { kind: 'collection_item.published', count: 500 });
      const a = createWebhookDispatcher(t.cms, { owner: 'dispatcher-a' });
      const b = createWebhookDispatcher(other, { owner: 'dispatcher-b' });
      const [sa, sb] = await Promise.all([a.processDue(), b.processDue()]);
      await Promise.all([a.close(), b.close()]);

      expect(sa.attempted + sb.attempted).toBe(500);
      expect(sa.attempted).toBeGreaterThan(0);
      expect(sb.attempted).toBeGreaterThan(0);
      expect(sa.succeeded + sb.succeeded).toBe(500);
      expect(r.received).toHaveLength(500);
      expect(seen.size).toBe(500);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await r.close();
    }
  }, 300_000);

  it('a server\'s dispatcher sends at once what another engine on the database committed (NOTIFY)', async () => {
    const r = await startReceiver();
    // The job's own timer would only come round in a minute: the wake-up has to do it.
    const jobs = startJobs(t.cms, webhookJobs(t.cms));
    try {
      await t.run('webhooks.create', { url: r.url, events: ['page.deleted'] });
      await other.run(emitEvents, { kind: 'page.deleted', data: { id: 'x', name: 'X', slug: 'x' } }, { actor: { kind: 'terminal' } });
      const [got] = await r.waitFor(1);
      expect(got!.body).toMatchObject({ event: 'page.deleted', data: { id: 'x' } });
    } finally {
      await jobs.stop();
      await r.close();
    }
  });
});

describe('a slow receiver never slows a write', () => {
  let t: TestCms;
  let r: Receiver;
  let jobs: RunningJobs;
  let answered = 0;
  const sleeping = new Set<() => void>();

  beforeAll(async () => {
    t = await createTestCms();
    // Sleeps 10 s before answering (cut short when the suite ends).
    r = await startReceiver((_got, res) => {
      const answer = () => {
        clearTimeout(timer);
        sleeping.delete(answer);
        answered++;
        if (!res.destroyed) res.writeHead(200).end();
      };
      const timer = setTimeout(answer, 10_000);
      sleeping.add(answer);
    });
    await t.run('webhooks.create', { url: r.url, events: ['page.published'] });
    jobs = startJobs(t.cms, webhookJobs(t.cms));
  });
  afterAll(async () => {
    for (const answer of [...sleeping]) answer();
    await jobs.stop();
    await r.close();
    await t.close();
  });

  it('returns from the write before the receiver answers, and the next write too', async () => {
    const first = await t.run(emitEvents as never, { kind: 'page.published', data: { id: 'p1' } });
    expect(first).toEqual({ emitted: 1 });
    // The commit woke the dispatcher: the delivery is out and the receiver is sleeping on it.
    await r.waitFor(1);
    expect(answered).toBe(0);
    const second = await t.run(emitEvents as never, { kind: 'page.published', data: { id: 'p2' } });
    expect(second).toEqual({ emitted: 1 });
    expect(answered).toBe(0);
    // And the second delivery goes out beside the first one, without waiting for its answer.
    await r.waitFor(2);
    expect(answered).toBe(0);
    expect(r.received.map((g) => g.body.data.id)).toEqual(['p1', 'p2']);
  });
});

describe('the server\'s dispatcher follows the configuration', () => {
  it('refuses private and loopback receivers with webhooks.blockPrivate (CMS_WEBHOOK_BLOCK_PRIVATE) set', async () => {
    const t = await createTestCms({ config: { webhookBlockPrivate: true } });
    const r = await startReceiver();
    const jobs = startJobs(t.cms, webhookJobs(t.cms));
    try {
      const w = await t.run('webhooks.create', { url: r.url, events: ['page.created'] });
      await t.run('webhooks.test', { id: w.id });
      let attempts: Array<{ error: string | null }> = [];
      for (let i = 0; i < 200 && attempts.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        attempts = (await t.run('webhooks.deliveries', { id: w.id })).data[0]!.attempts;
      }
      expect(attempts).toEqual([expect.objectContaining({ error: expect.stringMatching(/^refused: 127\.0\.0\.1 .*private or loopback/) })]);
      expect(r.received).toHaveLength(0);
    } finally {
      await jobs.stop();
      await r.close();
      await t.close();
    }
  });
});
