/** JSON responses with exact headers; every route answers through these. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers: h });
}
