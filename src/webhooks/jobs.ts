import { outboxChannel, webhookDispatcherService } from '../core/webhooks/index.js';
import type { JobFactory } from '../jobs.js';
import { createWebhookDispatcher, type WebhookDispatcherOptions } from './dispatcher.js';

/**
 * The webhook dispatcher of `cms serve`: one job that runs a pass every minute (the retries) and
 * at once whenever outbox rows are committed, by this process (the engine's 'outbox' event) or
 * by another one on the same database (a NOTIFY on the outbox channel, e.g. a CLI command).
 * The dispatcher also becomes the engine's `webhookDispatcher` service, so `webhooks.process`
 * run through the server uses it. Its settings come from the engine's configuration
 * (`webhookBlockPrivate`, `shutdownGraceMs`) unless `options` says otherwise.
 */
export function createWebhookJobs(options: WebhookDispatcherOptions = {}): JobFactory {
  return (cms) => {
    const dispatcher = createWebhookDispatcher(cms, {
      blockPrivate: cms.config.webhookBlockPrivate,
      shutdownGraceMs: cms.config.shutdownGraceMs,
      ...options,
    });
    cms.services[webhookDispatcherService] = dispatcher;
    const onOutbox = () => dispatcher.wake();
    cms.events.on('outbox', onOutbox);
    const unlisten = cms.handle
      .listen(outboxChannel, () => cms.events.emit('outbox'))
      .catch((e: unknown) => {
        cms.log.warn('webhooks: cannot listen for outbox notifications; new deliveries go out on the minute pass', { error: String(e) });
        return null;
      });
    return [{
      name: 'webhooks',
      intervalMs: 60_000,
      wakeOn: 'outbox',
      async tick() {
        const summary = await dispatcher.processDue();
        if (summary.failed + summary.exhausted > 0) cms.log.info('webhooks: pass finished', { ...summary });
      },
      // Called as soon as the server stops, while a pass may still be sending: the dispatcher stops
      // claiming and gives the attempts in flight the grace period, no more.
      async stop() {
        cms.events.off('outbox', onOutbox);
        await (await unlisten)?.();
        if (cms.services[webhookDispatcherService] === dispatcher) delete cms.services[webhookDispatcherService];
        await dispatcher.close();
      },
    }];
  };
}

/** The webhook dispatcher and its retry pass. */
export const webhookJobs: JobFactory = createWebhookJobs();
