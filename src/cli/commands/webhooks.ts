import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, table, UsageError } from '../output.js';
import { choiceOption, choices, chosen, countOption, listOption } from '../choices.js';

interface WebhookOut {
  id: string;
  url: string;
  events: string[];
  headers: Record<string, string>;
  active: boolean;
  secret: string;
}

interface DeliveryOut {
  id: string;
  event: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  createdAt: string;
  attempts: Array<{ attemptNumber: number; statusCode: number | null; durationMs: number; error: string | null; startedAt: string }>;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * `--header "K: V"` and `--header-env "K=VAR"` (both repeatable) → `{ K: "V" }`, the second with
 * its value from the environment variable VAR: a receiver's token kept out of process lists
 * (decisions §11: secrets never appear in process lists).
 */
function parseHeaders(list: string[], fromEnv: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const i = item.indexOf(':');
    if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${item}"`);
    out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  for (const item of fromEnv) {
    const i = item.indexOf('=');
    const name = item.slice(0, i).trim();
    const variable = item.slice(i + 1).trim();
    if (i <= 0 || !name || !variable) throw new UsageError(`--header-env must look like "Name=ENV_VAR", got "${item}"`);
    const value = env[variable];
    if (value === undefined) throw new UsageError(`--header-env ${item}: the environment variable ${variable} is not set`);
    out[name] = value.trim();
  }
  return out;
}

const headerEnvHelp = 'a custom header whose value is read from an environment variable, "Name=ENV_VAR": a token kept out of process lists (repeatable)';

const splitList = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

const describe = (w: WebhookOut) =>
  `${w.id}  ${w.active ? 'active' : 'inactive'}  ${w.url}\n  events: ${w.events.join(', ')}` +
  (Object.keys(w.headers).length ? `\n  headers: ${Object.keys(w.headers).join(', ')}` : '') +
  `\n  secret: ${w.secret}`;

const queued = (d: DeliveryOut) =>
  `Queued delivery ${d.id} (${d.event}). A running \`cms serve\` sends it at once; otherwise run \`cms webhooks process\`.`;

export function registerWebhooks(program: Command, state: ProgramState): void {
  const webhooks = program.command('webhooks').description('webhooks: signed event deliveries to your receivers, their logs and retries');
  const { io } = state;

  webhooks.command('create')
    .description('create a webhook; its whole secret is shown only now')
    .requiredOption('--url <url>', 'the receiver (http:// or https://)')
    .addOption(listOption('--events <list>', 'comma-separated event kinds, e.g. page.published,page.deleted', choices.eventKinds).makeOptionMandatory())
    .option('--header <header>', 'a custom header "Name: value" sent with every delivery (repeatable)', collect)
    .option('--header-env <header>', headerEnvHelp, collect)
    .option('--inactive', 'create it switched off')
    .action(action(state, async (g, opts: { url: string; events: string; header?: string[]; headerEnv?: string[]; inactive?: boolean }) => {
      const input = { url: opts.url, events: splitList(opts.events), headers: parseHeaders(opts.header ?? [], opts.headerEnv ?? [], io.env), active: !opts.inactive };
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.create', input));
      printResult(io, g, data, (w: WebhookOut) =>
        `Created webhook ${w.id} for ${w.url} (${w.events.join(', ')}).\n` +
        `Signing secret (shown only once, store it now):\n${w.secret}`);
    }));

  webhooks.command('list')
    .description('list webhooks (secrets masked)')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.list', {}));
      printResult(io, g, data, (rows: WebhookOut[]) =>
        table(io, rows.map((w) => ({ ...w, active: w.active ? 'yes' : 'no' })), ['id', 'active', 'url', 'events', 'secret'],
          'No webhooks yet. Create one: cms webhooks create --url https://example.com/hook --events page.published'));
    }));

  webhooks.command('get')
    .description('show one webhook (secret masked)')
    .argument('<id>', 'webhook id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.get', { id }));
      printResult(io, g, data, describe);
    }));

  webhooks.command('update')
    .description('change a webhook; only the options given change')
    .argument('<id>', 'webhook id')
    .option('--url <url>', 'a new receiver')
    .addOption(listOption('--events <list>', 'the new comma-separated event kinds', choices.eventKinds))
    .option('--header <header>', 'replaces all custom headers with these "Name: value" ones (repeatable)', collect)
    .option('--header-env <header>', `${headerEnvHelp}; with --header, replaces all custom headers`, collect)
    .option('--clear-headers', 'remove all custom headers')
    .option('--active', 'switch it on')
    .option('--inactive', 'switch it off: events from now on are not sent to it (deliveries already queued wait until it is on again)')
    .action(action(state, async (g, id: string, opts: { url?: string; events?: string; header?: string[]; headerEnv?: string[]; clearHeaders?: boolean; active?: boolean; inactive?: boolean }) => {
      if (opts.active && opts.inactive) throw new UsageError('--active and --inactive contradict each other');
      const newHeaders = Boolean(opts.header?.length || opts.headerEnv?.length);
      if (opts.clearHeaders && newHeaders) throw new UsageError('--clear-headers and --header contradict each other');
      const input = {
        id,
        ...(opts.url !== undefined ? { url: opts.url } : {}),
        ...(opts.events !== undefined ? { events: splitList(opts.events) } : {}),
        ...(newHeaders ? { headers: parseHeaders(opts.header ?? [], opts.headerEnv ?? [], io.env) } : opts.clearHeaders ? { headers: {} } : {}),
        ...(opts.active ? { active: true } : opts.inactive ? { active: false } : {}),
      };
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.update', input));
      printResult(io, g, data, (w: WebhookOut) => `Updated webhook:\n${describe(w)}`);
    }));

  webhooks.command('delete')
    .description('delete a webhook with its delivery log')
    .argument('<id>', 'webhook id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.delete', { id }));
      printResult(io, g, data, (r: { id: string }) => `Deleted webhook ${r.id}.`);
    }));

  webhooks.command('regenerate-secret')
    .description('give a webhook a new secret; the old one keeps signing too for 24 hours')
    .argument('<id>', 'webhook id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.regenerateSecret', { id }));
      printResult(io, g, data, (w: WebhookOut & { previousSecretExpiresAt: string | null }) =>
        `New signing secret for ${w.id} (shown only once, store it now):\n${w.secret}\n` +
        `The previous secret also signs deliveries until ${w.previousSecretExpiresAt}.`);
    }));

  webhooks.command('test')
    .description('queue a page.updated delivery with sample data to this webhook')
    .argument('<id>', 'webhook id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.test', { id }));
      printResult(io, g, data, queued);
    }));

  webhooks.command('deliveries')
    .description('a webhook\'s deliveries, newest first, with their attempts')
    .argument('<id>', 'webhook id')
    .addOption(choiceOption('--status <status>', 'only the deliveries in this state', choices.deliveryStatuses))
    .addOption(countOption('--limit <n>', 'how many (1-100, default 20)', 1))
    .addOption(countOption('--page <n>', 'which page of them (default 1)', 1))
    .action(action(state, async (g, id: string, opts: { status?: string; limit?: string; page?: string }) => {
      const { withEngine } = await import('../engine.js');
      const result = await withEngine(g, io, (e) => e.run('webhooks.deliveries', { id, status: chosen(choices.deliveryStatuses, opts.status, '--status'), limit: opts.limit, page: opts.page }));
      // --json: { data, pagination }, as the HTTP list answers.
      if (g.json) { io.stdout.write(JSON.stringify(result, null, 2) + '\n'); return; }
      printResult(io, g, result.data, (rows: DeliveryOut[]) => table(io, rows.map((d) => {
        const last = d.attempts[d.attempts.length - 1];
        return {
          id: d.id, event: d.event, status: d.status, attempts: d.attemptCount, lastStatus: d.lastStatusCode,
          lastError: last?.error ?? '', nextAttemptAt: d.nextAttemptAt, createdAt: d.createdAt,
        };
      }), ['id', 'event', 'status', 'attempts', 'lastStatus', 'lastError', 'nextAttemptAt', 'createdAt'],
      opts.status || (opts.page && opts.page !== '1') ? 'No deliveries match.' : `No deliveries yet. Queue a test one: cms webhooks test ${id}`));
    }));

  webhooks.command('redeliver')
    .description('send a past delivery again, as its next attempt')
    .argument('<id>', 'webhook id')
    .argument('<deliveryId>', 'delivery id (see `cms webhooks deliveries`)')
    .action(action(state, async (g, id: string, deliveryId: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.redeliver', { id, deliveryId }));
      printResult(io, g, data, queued);
    }));

  webhooks.command('process')
    .description('send every due delivery now, once (for cron or CI when no `cms serve` runs)')
    .action(action(state, async (g) => {
      // Without a running server this process's engine sends; with one, the command goes to it and it sends.
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('webhooks.process', {}));
      printResult(io, g, data, (s: { attempted: number; succeeded: number; failed: number; exhausted: number }) =>
        `Attempted ${s.attempted} deliveries: ${s.succeeded} succeeded, ${s.failed} failed (will retry), ${s.exhausted} exhausted.`);
    }));
}
