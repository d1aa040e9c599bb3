import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake AI provider over real HTTP, speaking both wire formats the AI SDK uses:
 * - OpenAI-compatible `POST /v1/chat/completions`: the structured answer is the message content,
 *   a JSON string (asked for with `response_format` json_schema, or json_object).
 * - Anthropic `POST /v1/messages`: the structured answer is the input of a `tool_use` block for
 *   the tool the library declares (`json`), with `stop_reason: "tool_use"`.
 * Each request takes the next scripted answer; with none scripted it answers a valid object made
 * from the requested schema. Every request is recorded (path, headers, parsed body).
 */

export type Script =
  /** A structured answer with exactly this object. */
  | { kind: 'object'; value: unknown; inputTokens?: number; outputTokens?: number }
  /** An error status with the provider's error body and headers (401, 429 with Retry-After, 500). */
  | { kind: 'status'; status: number; message: string; headers?: Record<string, string> }
  /** Answers only after `ms` (past the client's timeout). */
  | { kind: 'slow'; ms: number }
  /** A well-formed response whose content is not the JSON asked for. */
  | { kind: 'malformed' };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeAi {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues answers for the next requests, in order. */
  script(...answers: Script[]): void;
  /** Forgets recorded requests and queued answers. */
  reset(): void;
  close(): Promise<void>;
}

/** A value that fits a JSON schema (strings say which member they are). */
function sample(schema: any, name: string): unknown {
  switch (schema?.type) {
    case 'object': return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v, k)]));
    case 'array': return [sample(schema.items, name), sample(schema.items, `${name} 2`), sample(schema.items, `${name} 3`)];
    case 'number': case 'integer': return 1;
    case 'boolean': return true;
    default: return `Fake ${name}`;
  }
}

/** The JSON schema the library asked for, in either wire format. */
function requestedSchema(path: string, body: any): any {
  if (path.endsWith('/messages')) return body.tools?.find((t: any) => t.name === 'json')?.input_schema;
  return body.response_format?.json_schema?.schema ?? { type: 'object', properties: {} };
}

export async function startFakeAi(options: { apiKey?: string } = {}): Promise<FakeAi> {
  let queue: Script[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  function answer(path: string, body: any, res: ServerResponse, script: Script) {
    const anthropic = path.endsWith('/messages');
    if (script.kind === 'status') {
      const error = anthropic
        ? { type: 'error', error: { type: script.status === 401 ? 'authentication_error' : script.status === 429 ? 'rate_limit_error' : 'api_error', message: script.message } }
        : { error: { message: script.message, type: 'error', code: String(script.status) } };
      return send(res, script.status, error, script.headers);
    }
    if (script.kind === 'slow') {
      const t = setTimeout(() => { timers.delete(t); answer(path, body, res, { kind: 'object', value: sample(requestedSchema(path, body), 'value') }); }, script.ms);
      timers.add(t);
      return;
    }
    const content = script.kind === 'malformed' ? 'Sure! Here is your answer, not in JSON.' : JSON.stringify(script.value);
    const inputTokens = script.kind === 'object' ? script.inputTokens ?? 100 : 100;
    const outputTokens = script.kind === 'object' ? script.outputTokens ?? 20 : 20;
    if (anthropic) {
      const block = script.kind === 'malformed'
        ? { type: 'text', text: content }
        : { type: 'tool_use', id: 'toolu_fake', name: 'json', input: script.value };
      return send(res, 200, {
        id: 'msg_fake', type: 'message', role: 'assistant', model: body.model, content: [block],
        stop_reason: script.kind === 'malformed' ? 'end_turn' : 'tool_use', stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      });
    }
    return send(res, 200, {
      id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    });
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => { raw += d; });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      let body: any = null;
      try { body = JSON.parse(raw); } catch { return send(res, 400, { error: { message: 'invalid JSON' } }); }
      requests.push({ path, headers: req.headers, body });
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/messages')) {
        return send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      }
      if (options.apiKey !== undefined) {
        const given = path === '/v1/messages' ? req.headers['x-api-key'] : req.headers.authorization?.replace(/^Bearer /, '');
        if (given !== options.apiKey) return answer(path, body, res, { kind: 'status', status: 401, message: 'Invalid API key' });
      }
      const script = queue.shift() ?? { kind: 'object', value: sample(requestedSchema(path, body), 'value') };
      answer(path, body, res, script);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...answers) => { queue.push(...answers); },
    reset: () => { queue = []; requests.length = 0; },
    close: () => new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
