import { outboxChannel } from '../core/webhooks/index.js';
import type { JobFactory } from '../background-jobs.js';

/**
 * The webhook job of `cms serve`: it drives the engine's own dispatcher (`services.webhooks`),
 * a pass every minute (the retries) and at once whenever outbox rows are committed, by this
 * process (the engine's 'outbox' event) or by another one on the same database (a NOTIFY on the
 * outbox channel, e.g. a CLI command). The dispatcher's settings come from the engine's
 * configuration (`webhookBlockPrivate`, `shutdownGraceMs`).
 */
export const webhookJobs: JobFactory = (cms) => {
  const dispatcher = cms.services.webhooks;
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
    // claiming and gives the attempts in flight the grace period, no more. The engine, closed
    // right after, finds it closed already.
    async stop() {
      cms.events.off('outbox', onOutbox);
      await (await unlisten)?.();
      await dispatcher.close();
    },
  }];
};
