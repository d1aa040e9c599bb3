import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../src/config.js';

export const bucket = 'cms-media';

/**
 * How the store in front of the tests behaves: `ok` passes every request to the S3 server;
 * `down` drops every connection (a store that is gone); `fail-parts` answers the parts of
 * multipart uploads with 500 (a store that fails in the middle of a large upload).
 */
export type StoreMode = 'ok' | 'down' | 'fail-parts';

export interface TestS3 {
  /** The endpoint the engine is given: a pass-through in front of the S3 server, so a test can make it fail. */
  endpoint: string;
  mode: StoreMode;
  /** After this many more PUT requests pass, the store goes `down` (an interruption in the middle of a copy). */
  downAfterPuts: number | null;
  /** Objects created so far, counted by the S3 server (PUTs and completed multipart uploads). */
  created: string[];
  /** Storage settings for this bucket (`prefix` as given). */
  config(prefix?: string, extra?: Partial<S3StorageConfig>): S3StorageConfig;
  /** Every key in the bucket under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, files in a temporary folder) started in this process, and
 * the credentials it accepts set as the standard AWS variables (which the engine's S3 client reads).
 */
export async function startS3(): Promise<TestS3> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const dir = mkdtempSync(join(tmpdir(), 'cms-s3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await s3rver.run();
  const created: string[] = [];
  s3rver.on('event', (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => {
    for (const record of event.Records) if (record.eventName.startsWith('ObjectCreated')) created.push(decodeURIComponent(record.s3.object.key));
  });
  const state: { mode: StoreMode; downAfterPuts: number | null } = { mode: 'ok', downAfterPuts: null };
  const proxy: Server = createServer((req, res) => {
    if (req.method === 'PUT' && state.downAfterPuts !== null) {
      if (state.downAfterPuts === 0) {
        state.mode = 'down';
        state.downAfterPuts = null;
      } else {
        state.downAfterPuts -= 1;
      }
    }
    if (state.mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (state.mode === 'fail-parts' && req.method === 'PUT' && /[?&]partNumber=/.test(req.url ?? '')) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>injected failure</Message></Error>');
      return;
    }
    // The signature covers the Host header: it is passed on as the client sent it.
    const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const direct = new S3Client({
    region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    get mode() { return state.mode; },
    set mode(mode: StoreMode) { state.mode = mode; },
    get downAfterPuts() { return state.downAfterPuts; },
    set downAfterPuts(n: number | null) { state.downAfterPuts = n; },
    created,
    config: (prefix = '', extra = {}) => ({
      bucket, prefix, region: 'us-east-1', endpoint, forcePathStyle: true, redirect: false, redirectSeconds: 300, ...extra,
    }),
    async keys(prefix = '') {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await direct.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      direct.destroy();
      await s3rver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
