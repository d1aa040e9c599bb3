import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema/index.js';
import { rowsOf } from '../lib/rows.js';
import type { WebhookDispatcher, WebhookPassSummary } from '../core/webhooks/index.js';
import type { Clock, Logger } from '../core/context.js';
import { createHttpSender, type WebhookResponse, type WebhookSender } from './http-sender.js';
import { signBody, standardSignature } from './signature.js';

/** Retries after the 1st … 5th failure; the 6th attempt failing exhausts the delivery (docs/webhooks.md). */
export const retryScheduleMs = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000] as const;
export const defaultTimeoutMs = 30_000;
export const defaultConcurrency = 16;
/** The part of each answer that is kept with the attempt. */
export const captureBytes = 10 * 1024;
/** A Retry-After further out than this is cut to it. */
const maxRetryAfterMs = 24 * 60 * 60 * 1000;
export const userAgent = 'Service-Webhook/1.0';

export interface WebhookDispatcherOptions {
  /** Per attempt; 30 s unless a test needs less. */
  timeoutMs?: number;
  /** Attempts in flight at once, across all passes of this dispatcher. */
  concurrency?: number;
  /** How long a claim keeps other dispatchers away; past it, a crashed attempt is retried. */
  leaseMs?: number;
  /** Refuse private and loopback receivers (CMS_WEBHOOK_BLOCK_PRIVATE=true); link-local and metadata ones always are. */
  blockPrivate?: boolean;
  /**
   * How long `close()` lets attempts in flight finish (CMS_SHUTDOWN_GRACE_MS, 10 s by default).
   * Past it they are cut short, not recorded, and their claims released: they stay due in the
   * outbox and the next dispatcher sends them again.
   */
  shutdownGraceMs?: number;
  /** Names this dispatcher in the lease column. */
  owner?: string;
  /** Sends the requests; an undici sender unless given. */
  sender?: WebhookSender;
}

/** What a dispatcher works with: the engine's database, clock and log. */
export interface WebhookDispatcherDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** Told the outcome of every recorded attempt (the engine's metrics count them). */
  onOutcome?: (outcome: Outcome) => void;
}

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  event: string;
  payload: string;
  attemptCount: number;
  url: string;
  headers: Record<string, string>;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * Claims up to `limit` due deliveries of active webhooks in one statement (its own short
 * transaction): the rows are locked with FOR UPDATE SKIP LOCKED, so racing dispatchers take
 * different rows, and leased to `owner` until `now + leaseMs`, so no one else takes them while
 * they are being sent. Sending happens afterwards, outside any transaction.
 */
export async function claimDueDeliveries(
  db: Db,
  options: { now: Date; limit: number; owner: string; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const { now, limit, owner, leaseMs } = options;
  if (limit <= 0) return [];
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const rows = rowsOf<ClaimRow>(await db.execute(sql`
    with due as (
      select d.id from webhook_deliveries d
      where d.status in ('pending', 'failed')
        and d.next_attempt_at <= ${at}::timestamptz
        and (d.lease_until is null or d.lease_until < ${at}::timestamptz)
        and exists (select 1 from webhooks w where w.id = d.webhook_id and w.active)
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    ), leased as (
      update webhook_deliveries d set lease_until = ${until}::timestamptz, lease_owner = ${owner}
      from due where d.id = due.id
      returning d.id, d.webhook_id, d.event, d.payload, d.attempt_count, d.next_attempt_at
    )
    select l.id, l.webhook_id, l.event, l.payload, l.attempt_count, w.url, w.headers, w.secret,
           w.previous_secret, w.previous_secret_expires_at
    from leased l join webhooks w on w.id = l.webhook_id
    order by l.next_attempt_at
  `));
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    event: r.event,
    payload: r.payload,
    attemptCount: Number(r.attempt_count),
    url: r.url,
    headers: typeof r.headers === 'string' ? storedHeaders.parse(JSON.parse(r.headers)) : r.headers ?? {},
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousSecretExpiresAt: r.previous_secret_expires_at === null ? null : new Date(r.previous_secret_expires_at),
  }));
}

/** A webhook's custom headers, as stored (jsonb that a driver may hand back as text). */
const storedHeaders = z.record(z.string(), z.string());

interface ClaimRow {
  id: string;
  webhook_id: string;
  event: string;
  payload: string;
  attempt_count: number | string;
  url: string;
  headers: Record<string, string> | string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
}

/**
 * Gives claimed deliveries back (no attempt made or none recorded): due again at once for any
 * dispatcher, with their state and retry schedule as they were. Only rows this owner still holds.
 */
export async function releaseClaims(db: Db, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(webhookDeliveries).set({ leaseUntil: null, leaseOwner: null })
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.leaseOwner, owner)));
}

/** The exact request headers of one attempt (custom ones first; ours cannot be replaced). */
export function deliveryHeaders(c: ClaimedDelivery, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signatures = [standardSignature(c.secret, c.id, timestamp, c.payload)];
  if (c.previousSecret && c.previousSecretExpiresAt && c.previousSecretExpiresAt > at) {
    signatures.push(standardSignature(c.previousSecret, c.id, timestamp, c.payload));
  }
  return {
    ...c.headers,
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    'X-Webhook-Event': c.event,
    'X-Webhook-Delivery-Id': c.id,
    'X-Webhook-Signature': signBody(c.secret, c.payload),
    'webhook-id': c.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}

/** `Retry-After` in seconds or as an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): Date | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return new Date(now.getTime() + Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : new Date(date);
}

type Outcome = 'succeeded' | 'failed' | 'exhausted';

/** What becomes of a delivery after an attempt numbered `attemptNumber` (1-based). */
export function nextState(attemptNumber: number, res: WebhookResponse, now: Date): { status: 'success' | 'failed' | 'exhausted'; nextAttemptAt: Date } {
  if (res.statusCode !== null && res.statusCode >= 200 && res.statusCode < 300) return { status: 'success', nextAttemptAt: now };
  const delay = retryScheduleMs[attemptNumber - 1];
  if (delay === undefined) return { status: 'exhausted', nextAttemptAt: now };
  let next = new Date(now.getTime() + delay);
  if (res.statusCode === 429 || res.statusCode === 503) {
    const asked = parseRetryAfter(res.retryAfter, now);
    if (asked && asked > next) next = new Date(Math.min(asked.getTime(), now.getTime() + maxRetryAfterMs));
  }
  return { status: 'failed', nextAttemptAt: next };
}

/** One finished attempt, waiting to be written. */
export interface AttemptRecord {
  delivery: ClaimedDelivery;
  attemptNumber: number;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  res: WebhookResponse;
  status: 'success' | 'failed' | 'exhausted';
  nextAttemptAt: Date;
  requestHeaders: Record<string, string>;
}

/**
 * Writes finished attempts in one transaction: the deliveries' new state (only where this
 * dispatcher still holds the lease), the attempt rows, and 410 deactivations. Answers, per record,
 * whether the delivery's state was written.
 */
export async function writeAttempts(db: Db, owner: string, records: AttemptRecord[], log: Logger): Promise<boolean[]> {
  if (records.length === 0) return [];
  return db.transaction(async (tx) => {
    const values = sql.join(records.map((r) => sql`(${r.delivery.id}::uuid, ${r.status}, ${r.attemptNumber}::int, ${r.nextAttemptAt.toISOString()}::timestamptz, ${r.res.statusCode}::int, ${r.finishedAt.toISOString()}::timestamptz)`), sql`, `);
    const updated = new Set(rowsOf<{ id: string }>(await tx.execute(sql`
      update webhook_deliveries as d
      set status = v.status, attempt_count = v.attempt_count, next_attempt_at = v.next_attempt_at,
          last_status_code = v.last_status_code, lease_until = null, lease_owner = null, updated_at = v.updated_at
      from (values ${values}) as v(id, status, attempt_count, next_attempt_at, last_status_code, updated_at)
      where d.id = v.id and d.lease_owner = ${owner}
      returning d.id
    `)).map((r) => r.id));
    const lost = records.filter((r) => !updated.has(r.delivery.id)).map((r) => r.delivery.id);
    // A lease that ran out (another dispatcher has the delivery now): the attempt is logged, the
    // state left alone. A deleted webhook took its deliveries along: nothing to log.
    const stillThere = new Set(lost.length
      ? (await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, lost))).map((r) => r.id)
      : []);
    for (const id of stillThere) log.warn('webhook attempt finished after its lease expired', { deliveryId: id });
    const kept = records.filter((r) => updated.has(r.delivery.id) || stillThere.has(r.delivery.id));
    if (kept.length) {
      await tx.insert(webhookAttempts).values(kept.map((r) => ({
        deliveryId: r.delivery.id, attemptNumber: r.attemptNumber, startedAt: r.startedAt, durationMs: r.durationMs,
        statusCode: r.res.statusCode, responseBody: r.res.body, error: r.res.error, success: r.status === 'success',
        requestHeaders: r.requestHeaders,
      })));
    }
    const gone = [...new Set(records.filter((r) => r.res.statusCode === 410).map((r) => r.delivery.webhookId))];
    if (gone.length) {
      // 410 Gone: the receiver asks us to stop. Its deliveries wait until it is activated again.
      const at = records[records.length - 1]!.finishedAt;
      await tx.update(webhooks).set({ active: false, updatedAt: at }).where(inArray(webhooks.id, gone));
      for (const id of gone) log.warn('webhook deactivated: the receiver answered 410 Gone', { webhookId: id });
    }
    return records.map((r) => updated.has(r.delivery.id));
  });
}

/**
 * Group commit: finished attempts are written together, a few milliseconds after the first of
 * them arrives, so a burst of answers costs a few transactions instead of one each. The wait
 * matters on PGlite, whose statements run on this thread: without it, each transaction leaves
 * room for about one answer to come in before the next one starts.
 */
function createRecorder(db: Db, owner: string, log: Logger, lingerMs = 5) {
  const queue: Array<{ record: AttemptRecord; resolve: (ok: boolean) => void; reject: (e: unknown) => void }> = [];
  let scheduled = false;
  async function flush() {
    try {
      while (queue.length) {
        const batch = queue.splice(0, 500);
        try {
          const results = await writeAttempts(db, owner, batch.map((b) => b.record), log);
          batch.forEach((b, i) => b.resolve(results[i] ?? false));
        } catch (e) {
          for (const b of batch) b.reject(e);
        }
      }
    } finally {
      scheduled = false;
    }
  }
  return {
    record(record: AttemptRecord): Promise<boolean> {
      return new Promise((resolve, reject) => {
        queue.push({ record, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setTimeout(() => void flush(), lingerMs);
        }
      });
    },
  };
}

/** A promise that many waiters share and one call settles; then a new one starts. */
function createSignal() {
  let resolve!: () => void;
  let promise = new Promise<void>((r) => { resolve = r; });
  return {
    wait: () => promise,
    fire() {
      const done = resolve;
      promise = new Promise<void>((r) => { resolve = r; });
      done();
    },
  };
}

/**
 * The dispatcher: passes that claim due deliveries, send them with bounded concurrency and
 * record each attempt. Several dispatchers (processes or engines) may run on one database.
 */
export function createWebhookDispatcher(deps: WebhookDispatcherDeps, options: WebhookDispatcherOptions = {}): WebhookDispatcher {
  const { db, clock, log } = deps;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const concurrency = Math.max(1, options.concurrency ?? defaultConcurrency);
  const claimBatch = Math.max(1, Math.floor(concurrency / 2));
  const leaseMs = options.leaseMs ?? timeoutMs + 60_000;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const shutdownGraceMs = options.shutdownGraceMs ?? 10_000;
  const sender = options.sender ?? createHttpSender({ timeoutMs, blockPrivate: options.blockPrivate ?? false, captureBytes });
  /** Fired when the grace period is over: attempts still waiting for an answer give up. */
  const cutShort = new AbortController();
  const slotFreed = createSignal();
  const woken = createSignal();
  const passes = new Set<Promise<unknown>>();
  const recorder = createRecorder(db, owner, log);
  let active = 0;
  let closed = false;

  /** Sends one delivery; frees its concurrency slot once the answer is in, then records it. */
  async function attempt(c: ClaimedDelivery, sent: () => void): Promise<Outcome | null> {
    const startedAt = clock.now();
    const headers = deliveryHeaders(c, startedAt);
    const t0 = performance.now();
    const res = await sender.send({ url: c.url, headers, body: c.payload }, { signal: cutShort.signal }).finally(sent);
    if (cutShort.signal.aborted && res.statusCode === null) {
      // Not the receiver's failure: the attempt is not counted, and the delivery is due again at
      // once. The receiver may have got it all the same: at-least-once, as after a crash.
      await releaseClaims(db, owner, [c.id]);
      return null;
    }
    const durationMs = Math.round(performance.now() - t0);
    const finishedAt = clock.now();
    const attemptNumber = c.attemptCount + 1;
    const { status, nextAttemptAt } = nextState(attemptNumber, res, finishedAt);
    // The attempt log keeps custom header names but not their values (they often hold tokens).
    const requestHeaders: Record<string, string> = { ...headers };
    for (const name of Object.keys(c.headers)) requestHeaders[name] = '(custom)';
    const recorded = await recorder.record({ delivery: c, attemptNumber, startedAt, finishedAt, durationMs, res, status, nextAttemptAt, requestHeaders });
    if (!recorded) return null;
    return status === 'success' ? 'succeeded' : status;
  }

  async function runPass(): Promise<WebhookPassSummary> {
    const summary: WebhookPassSummary = { attempted: 0, succeeded: 0, failed: 0, exhausted: 0 };
    const mine = new Set<Promise<void>>();
    try {
      while (!closed) {
        const free = concurrency - active;
        // Claims go in batches (each is a statement of its own): wait for half the slots to free
        // up, unless nothing at all is in flight.
        if (free <= 0 || (active > 0 && free < claimBatch)) {
          await slotFreed.wait();
          continue;
        }
        // Taken before claiming, so a commit announced during the claim is not missed.
        const wakeup = woken.wait();
        const claimed = await claimDueDeliveries(db, { now: clock.now(), limit: free, owner, leaseMs });
        if (closed) {
          // Stopping while this claim ran: hand the rows back untouched.
          await releaseClaims(db, owner, claimed.map((c) => c.id));
          break;
        }
        for (const c of claimed) {
          active++;
          summary.attempted++;
          let held = true;
          const release = () => {
            if (!held) return;
            held = false;
            active--;
            slotFreed.fire();
          };
          const p: Promise<void> = attempt(c, release)
            .then((outcome) => {
              if (!outcome) return;
              summary[outcome]++;
              deps.onOutcome?.(outcome);
            })
            .catch((e: unknown) => log.error('webhook attempt could not be recorded; it is retried when its lease expires', {
              deliveryId: c.id, error: e instanceof Error ? e.message : String(e),
            }))
            .finally(() => { release(); mine.delete(p); });
          mine.add(p);
        }
        if (claimed.length === free) continue;
        if (mine.size === 0) break;
        await Promise.race([...mine, wakeup]);
      }
    } finally {
      await Promise.allSettled([...mine]);
    }
    return summary;
  }

  return {
    processDue() {
      const pass = runPass();
      passes.add(pass);
      void pass.finally(() => passes.delete(pass)).catch(() => {});
      return pass;
    },
    wake: () => woken.fire(),
    async close() {
      if (closed) return;
      closed = true;
      woken.fire();
      slotFreed.fire();
      const finished = Promise.allSettled([...passes]);
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace over'>((resolve) => { timer = setTimeout(() => resolve('grace over'), shutdownGraceMs); });
      if (await Promise.race([finished, graceOver]) === 'grace over') {
        log.warn(`webhooks: attempts still in flight after the ${shutdownGraceMs} ms shutdown grace period were cut short; they stay in the outbox and are sent again`);
        cutShort.abort();
      }
      clearTimeout(timer);
      await finished;
      await sender.close();
    },
  };
}

