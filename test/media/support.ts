import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import sharp from 'sharp';
import type { EmittedEvent } from '../../src/runtime.js';
import { createTestCms, type TestCms, type TestCmsOptions } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

/** Responses whose JSON tests read freely. */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export interface MediaHarness {
  t: TestCms;
  http: HttpClient;
  /** Events committed since the harness started (or since `events.length = 0`). */
  events: EmittedEvent[];
  keys: { public: string; secret: string; secretNoMedia: string; preview: string };
  /** `cms_session=…` of an editor of the default project. */
  editorCookie: string;
  /** `cms_session=…` of a viewer of the default project. */
  viewerCookie: string;
  fetch(path: string, init?: RequestInit): Promise<JsonResponse>;
  /** POST /api/v1/media with a secret key (or the one given) and a fresh Idempotency-Key (or the one given). */
  upload(bytes: Uint8Array, filename: string, options?: { type?: string; altText?: string; folder?: string; key?: string | null; idempotencyKey?: string | null }): Promise<JsonResponse>;
  /** A session request to the admin API (JSON body unless a FormData is given). */
  admin(method: string, path: string, options?: { body?: unknown; cookie?: string }): Promise<JsonResponse>;
  close(): Promise<void>;
}

const password = 'correct horse battery staple';

export async function createMediaHarness(options: TestCmsOptions = {}): Promise<MediaHarness> {
  const t = await createTestCms(options);
  const http = await serveOverSocket(t.cms);
  const events: EmittedEvent[] = [];
  t.cms.events.on('event', (ev) => events.push(ev));
  const key = async (type: string, permissions?: string) => (await t.run('keys.create', { type, ...(permissions ? { permissions } : {}) })).key as string;
  const keys = {
    public: await key('public'),
    secret: await key('secret', 'media:write,content:write'),
    secretNoMedia: await key('secret', 'content:write'),
    preview: await key('preview'),
  };
  const signIn = async (role: string) => {
    const email = `${role}@example.test`;
    await t.run('users.create', { email, password, role });
    const session = await t.run('auth.login', { email, password });
    return `cms_session=${session.token}`;
  };
  const editorCookie = await signIn('editor');
  const viewerCookie = await signIn('viewer');
  const fetchJson = (path: string, init?: RequestInit) => http.fetch(path, init) as Promise<JsonResponse>;
  return {
    t, http, events, keys, editorCookie, viewerCookie,
    fetch: fetchJson,
    upload(bytes, filename, o = {}) {
      const form = new FormData();
      form.set('file', new Blob([bytes], { type: o.type ?? 'application/octet-stream' }), filename);
      if (o.altText) form.set('altText', o.altText);
      if (o.folder) form.set('folder', o.folder);
      const headers: Record<string, string> = {};
      const k = o.key === undefined ? keys.secret : o.key;
      if (k) headers['x-api-key'] = k;
      const idem = o.idempotencyKey === undefined ? randomUUID() : o.idempotencyKey;
      if (idem) headers['idempotency-key'] = idem;
      return fetchJson('/api/v1/media', { method: 'POST', headers, body: form });
    },
    admin(method, path, o = {}) {
      // Origin equal to the base URL satisfies the CSRF rule for cookie-carrying writes.
      const headers: Record<string, string> = { cookie: o.cookie ?? editorCookie, origin: t.config.baseUrl };
      let body: RequestInit['body'];
      if (o.body instanceof FormData) body = o.body;
      else if (o.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(o.body);
      } else if (method !== 'GET') headers['content-type'] = 'application/json';
      return fetchJson(path, { method, headers, ...(body !== undefined ? { body } : {}) });
    },
    async close() {
      await http.close();
      await t.close();
    },
  };
}

/** The path part of a media URL (the base URL of the config is not where the test server listens). */
export const pathOf = (url: string): string => new URL(url).pathname;

/** A GET with the path sent exactly as written: no URL normalisation of `..` or `%2e`. */
export function rawGet(baseUrl: string, rawPath: string): Promise<{ status: number; body: string }> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'GET', path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A small real image of the given format, drawn by sharp. */
export async function makeImage(format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif', width: number, height: number, color = '#3366cc'): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 4, background: color } });
  switch (format) {
    case 'png': return base.png().toBuffer();
    case 'jpeg': return base.jpeg().toBuffer();
    case 'gif': return base.gif().toBuffer();
    case 'webp': return base.webp().toBuffer();
    case 'avif': return base.avif().toBuffer();
  }
}

/** Minimal but genuine headers of non-image formats. */
export const samples = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  mp4: Buffer.concat([
    Buffer.from([0x00, 0x00, 0x00, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2'),
    Buffer.from([0x00, 0x00, 0x00, 0x08]), Buffer.from('free'),
  ]),
  webm: Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84]),
    Buffer.from('webm'), Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
  ]),
  mp3: Buffer.concat([Buffer.from('ID3'), Buffer.from([0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(64)]),
  wav: (() => {
    const b = Buffer.alloc(44 + 8);
    b.write('RIFF', 0); b.writeUInt32LE(36 + 8, 4); b.write('WAVE', 8); b.write('fmt ', 12);
    b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22); b.writeUInt32LE(8000, 24);
    b.writeUInt32LE(8000, 28); b.writeUInt16LE(1, 32); b.writeUInt16LE(8, 34); b.write('data', 36); b.writeUInt32LE(8, 40);
    return b;
  })(),
  zip: Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]),
  text: Buffer.from('Hello, plain text.\nSecond line.\n'),
  svg: Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><rect width="30" height="20" fill="red"/></svg>\n'),
  html: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
  binary: Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0xff, 0x00, 0x10]),
};
