import { createHash } from 'node:crypto';
import type { OperationName } from '../../core/registry.js';
import { answerIdempotentWrite } from '../idempotent-write.js';
import { json } from '../response.js';
import { bodyObject, opRoute, type RouteDef } from '../route.js';

type AiOperation = Extract<OperationName, 'ai.seo' | 'ai.suggest' | 'ai.altText'>;

/**
 * A public AI request: a secret key with ai:use. A proposal writes nothing, so it needs no
 * Idempotency-Key (a repeat asks the model again); with `"apply": true` it writes, and is a public
 * write like any other: an Idempotency-Key, the answer stored with the write and replayed.
 */
function publicAiRoute(path: string, op: AiOperation): RouteDef {
  return {
    method: 'POST', path, auth: 'key', ignorePreviewKeys: true,
    async handle(rc) {
      // Who may ask is checked before a byte of the body is read, as for every public write.
      await rc.cms.authorize(op, { actor: rc.actor });
      const body = await bodyObject(rc);
      if (body.apply !== true) return json({ data: await rc.run(op, body) }, 200, { 'cache-control': 'no-store' });
      return answerIdempotentWrite(rc, op, 'ai:use', async () => {
        const raw = await rc.rawBody();
        const requestHash = createHash('sha256').update(`POST ${rc.url.pathname}${rc.url.search}\n${raw}`).digest('hex');
        return { input: body, requestHash };
      }, { status: 200, wrap: (r) => ({ data: r }) });
    },
  };
}

const admin = '/api/v1/admin/ai';

/** AI assistance (docs/ai.md): the public API behind ai:use, and the admin API for members. */
export const aiRoutes: RouteDef[] = [
  publicAiRoute('/api/v1/ai/seo', 'ai.seo'),
  publicAiRoute('/api/v1/ai/suggest', 'ai.suggest'),
  publicAiRoute('/api/v1/ai/alt-text', 'ai.altText'),

  // Editors and above; usage for admins.
  opRoute('POST', `${admin}/seo`, 'session', 'ai.seo', (rc) => bodyObject(rc)),
  opRoute('POST', `${admin}/suggest`, 'session', 'ai.suggest', (rc) => bodyObject(rc)),
  opRoute('POST', `${admin}/alt-text`, 'session', 'ai.altText', (rc) => bodyObject(rc)),
  opRoute('GET', `${admin}/usage`, 'session', 'ai.usage', (rc) => ({
    ...(rc.query.get('month') ? { month: rc.query.get('month') } : {}),
    ...(rc.query.get('months') ? { months: rc.query.get('months') } : {}),
  })),
];
