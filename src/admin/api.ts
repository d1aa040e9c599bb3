// The admin API, as the browser speaks it: the session cookie (sent by the browser), X-Project for
// the chosen project, and JSON bodies (Content-Type: application/json satisfies the CSRF rule).

export interface ApiErrorBody { code: string; message: string; details?: unknown }

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details?: unknown, readonly retryAfter?: number) {
    super(message);
  }
}

export interface Membership { project: { id: string; slug: string; name: string }; role: Role }
export type Role = 'viewer' | 'editor' | 'developer' | 'admin' | 'owner';
export interface Me { user: { id: string; email: string; name?: string | null }; memberships: Membership[]; session: { expiresAt: string } }
export interface Pagination { page: number; limit: number; total: number; totalPages: number }
export interface Listed<T> { data: T[]; pagination?: Pagination }
export interface Entry {
  id: string; name: string; slug: string; status: string; version?: number;
  draftContent?: unknown; publishedContent?: unknown; publishAt?: string | null; unpublishAt?: string | null; updatedAt?: string;
  [key: string]: unknown;
}
export interface TypeDef { slug: string; name: string; fields?: unknown[] }
export interface BulkResult { id: string; ok: boolean; error?: ApiErrorBody }

const roleOrder: Role[] = ['viewer', 'editor', 'developer', 'admin', 'owner'];
/** Whether a member of this role has at least the given one (the server still decides every request). */
export const atLeast = (role: Role | undefined, min: Role) => role !== undefined && roleOrder.indexOf(role) >= roleOrder.indexOf(min);
export const canWrite = (role: Role | undefined) => atLeast(role, 'editor');

/** Called when an answer says the session is gone (401 outside sign-in). */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void): void { onUnauthorized = handler; }

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function api<T>(path: string, options: { method?: string; body?: unknown; project?: string | undefined } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.project) headers['x-project'] = options.project;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/api/v1/admin${path}`, {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
  if (!res.ok) {
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : {};
    const retryHeader = Number(res.headers.get('retry-after'));
    const err = new ApiError(
      res.status,
      typeof error.code === 'string' ? error.code : 'HTTP_' + res.status,
      typeof error.message === 'string' ? error.message : `The server answered ${res.status}`,
      error.details,
      Number.isFinite(retryHeader) && retryHeader > 0 ? retryHeader : undefined,
    );
    if (res.status === 401 && !path.startsWith('/auth/')) onUnauthorized();
    throw err;
  }
  // Every answer of the admin API is JSON; the shape is the route's (docs/admin.md).
  return parsed as T; // cast: the server's answer, typed by the route called
}

/** Every row of a paged list (`{ data, pagination }`: webhooks, keys, members, types, migrations, folders), read 100 at a time. */
export async function apiAll<T>(path: string, options: Parameters<typeof api>[1] = {}): Promise<T[]> {
  const rows: T[] = [];
  const joiner = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const answer = await api<{ data: T[]; pagination?: { totalPages: number } }>(`${path}${joiner}limit=100&page=${page}`, options);
    rows.push(...answer.data);
    if (!answer.pagination || page >= answer.pagination.totalPages) return rows;
  }
}

/** `{ data }` unwrapped. */
export async function apiData<T>(path: string, options: Parameters<typeof api>[1] = {}): Promise<T> {
  const answer = await api<{ data: T }>(path, options);
  return answer.data;
}
