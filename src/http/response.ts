/** JSON responses with exact headers; every route answers through these. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json; charset=utf-8');
  // An error is no answer to keep: a CDN that kept a 404 would hide the page published next.
  if (status >= 400 && !h.has('cache-control')) h.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { status, headers: h });
}
