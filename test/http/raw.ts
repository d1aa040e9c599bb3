import { connect } from 'node:net';

/** What came back over the socket for one raw request. */
export interface RawAnswer {
  /** The status line (`HTTP/1.1 404 Not Found`), or null when nothing came back. */
  statusLine: string | null;
  status: number | null;
  /** Header names in lower case; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The body, de-chunked. */
  body: Buffer;
  /** A socket error or 'timeout', when the exchange did not end cleanly. */
  error: string | null;
}

/**
 * Sends bytes as they are over a fresh socket (so malformed requests reach the server's parser)
 * and reads until the server closes the connection. Send `Connection: close` to end early.
 */
export function rawExchange(port: number, request: Buffer | string, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks), error));
    };
    const timer = setTimeout(() => { error ??= 'timeout'; finish(); }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => { error ??= e.code ?? e.message; });
    socket.on('close', finish);
    socket.on('end', finish);
    socket.write(request);
  });
}

export function parseAnswer(raw: Buffer, error: string | null = null): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (raw.length === 0 || end === -1) return { statusLine: raw.length ? raw.toString('latin1').split('\r\n')[0]! : null, status: null, headers: {}, body: Buffer.alloc(0), error: error ?? (raw.length ? 'incomplete head' : null) };
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = lines[0]!;
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { statusLine, status: m ? Number(m[1]) : null, headers, body, error };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!(size > 0)) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A request head and body as bytes; `body` goes out with a Content-Length, or chunked. */
export function rawRequest(method: string, target: string, headers: Array<[string, string]>, body?: Buffer | string, options: { chunked?: boolean } = {}): Buffer {
  const head = [`${method} ${target} HTTP/1.1`, ...headers.map(([k, v]) => `${k}: ${v}`)];
  const bytes = body === undefined ? null : Buffer.isBuffer(body) ? body : Buffer.from(body);
  if (bytes && options.chunked) {
    head.push('Transfer-Encoding: chunked');
    const parts: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 4096) {
      const piece = bytes.subarray(i, i + 4096);
      parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    }
    return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), ...parts, Buffer.from('0\r\n\r\n')]);
  }
  if (bytes) head.push(`Content-Length: ${bytes.length}`);
  return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), bytes ?? Buffer.alloc(0)]);
}
