import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { H3Event } from 'h3';
import type { Actor } from '../core/actor.js';
import type { Cms } from '../runtime.js';

/**
 * One line and one count per request (docs/operating.md): the request id (a valid incoming
 * X-Request-Id, else a new one, sent back on every answer), the route pattern the request was
 * matched to (never the raw path, which holds ids and slugs), the status, the time taken, and who
 * asked (project, key id or user id; never a key, cookie, password or Authorization value).
 */
interface RequestNote {
  route: string | null;
  actor: Actor | null;
  project: string | null;
}

/** What the routes tell about their request, keyed by Node's request object (h3 hands it on). */
const notes = new WeakMap<object, RequestNote>();

const noteOf = (event: H3Event): RequestNote | undefined => {
  const req = event.runtime?.node?.req;
  return req ? notes.get(req) : undefined;
};

/** The route pattern (`/api/v1/pages/:slug`) a request was matched to. */
export function noteRoute(event: H3Event, route: string): void {
  const note = noteOf(event);
  if (note) note.route = route;
}

/** Who the request was answered for, once the route's authentication knows. */
export function noteCaller(event: H3Event, actor: Actor, project: string | undefined): void {
  const note = noteOf(event);
  if (note) {
    note.actor = actor;
    note.project = project ?? null;
  }
}

/** The same, for the fast path of node-server.ts (a cache hit answered without h3). */
export function noteFastAnswer(req: IncomingMessage, route: string, actor: Actor): void {
  const note = notes.get(req);
  if (note) {
    note.route = route;
    note.actor = actor;
  }
}

/** Printable ASCII without spaces, up to 128 characters: anything else is replaced by a new id. */
const validRequestId = /^[\x21-\x7e]{1,128}$/;

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export function observeRequests(cms: Cms, next: NodeHandler): NodeHandler {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && validRequestId.test(given) ? given : randomUUID();
    res.setHeader('x-request-id', requestId);
    const note: RequestNote = { route: null, actor: null, project: null };
    notes.set(req, note);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = note.route ?? '(unmatched)';
      const method = req.method ?? 'GET';
      const status = res.statusCode;
      const labels = { method, route, status: String(status) };
      cms.metrics?.httpRequests.inc(labels);
      cms.metrics?.httpDuration.observe(labels, seconds);
      const actor = note.actor;
      cms.log.info('request', {
        requestId, method, route, status, durationMs: Math.round(seconds * 1e6) / 1e3,
        ...(note.project ? { project: note.project } : {}),
        ...(actor?.kind === 'key' ? { projectId: actor.projectId, keyId: actor.keyId } : {}),
        ...(actor?.kind === 'user' ? { userId: actor.userId } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    });
    return next(req, res);
  };
}
