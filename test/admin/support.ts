import type { CmsConfig } from '../../src/config.js';
import type { Role } from '../../src/core/roles.js';
import { createManualClock, createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

export const password = 'correct horse battery staple';

/** Responses whose JSON tests read freely. */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export interface AdminHarness {
  t: TestCms;
  http: HttpClient;
  clock: ReturnType<typeof createManualClock>;
  /** Creates a user with this role in the default project (or the one named). */
  createUser(role: Role, options?: { email?: string; project?: string }): Promise<{ id: string; email: string }>;
  /** Signs in and returns the `cms_session=…` pair to send as the Cookie header. */
  signIn(email: string, pw?: string): Promise<string>;
  /** A JSON request with the session cookie (and optional X-Project). */
  call(method: string, path: string, options?: { cookie?: string; body?: unknown; project?: string; headers?: Record<string, string> }): Promise<JsonResponse>;
  /** Plain fetch against the server. */
  fetch(path: string, init?: RequestInit): Promise<JsonResponse>;
  close(): Promise<void>;
}

let seq = 0;

/** An engine on a fresh database with a manual clock, served on a real socket. */
export async function createAdminHarness(options: { config?: Partial<CmsConfig> } = {}): Promise<AdminHarness> {
  const clock = createManualClock();
  const t = await createTestCms({ clock, ...(options.config ? { config: options.config } : {}) });
  const http = await serveOverSocket(t.cms);
  const h: AdminHarness = {
    t, http, clock,
    async createUser(role, options = {}) {
      const email = options.email ?? `${role}-${++seq}@example.test`;
      const user = await t.cms.run('users.create', { email, password, role }, { actor: { kind: 'terminal' }, project: options.project });
      return user as { id: string; email: string };
    },
    async signIn(email, pw = password) {
      const res = await http.fetch('/api/v1/admin/auth/login', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: pw }),
      });
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
      const cookie = res.headers.get('set-cookie') ?? '';
      return cookie.split(';')[0]!;
    },
    fetch: (path, init) => http.fetch(path, init),
    call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.cookie) headers.cookie = options.cookie;
      if (options.project) headers['x-project'] = options.project;
      if (method !== 'GET' && method !== 'HEAD') headers['content-type'] ??= 'application/json';
      return http.fetch(path, {
        method,
        headers,
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
      });
    },
    async close() {
      await http.close();
      await t.close();
    },
  };
  return h;
}
