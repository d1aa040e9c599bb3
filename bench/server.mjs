// The server side of `npm run bench`, run as a child process so that the server and the load
// generator each get a core of their own. Three modes:
//   node bench/server.mjs cms          the real server (startServer from dist/) on the seeded database
//   node bench/server.mjs raw          a bare node:http server answering fixed bytes (the read baseline)
//   node bench/server.mjs raw-insert   a bare node:http server, one plain INSERT per POST (the write baseline)
// Settings come in the environment (CMS_DATA_DIR, DATABASE_URL, CMS_CACHE, CMS_RATE_LIMIT); the
// port goes back to the parent over IPC, and the parent ends the child with a 'stop' message.
import { createServer } from 'node:http';

const mode = process.argv[2];

async function startCms() {
  const { loadConfig } = await import('../dist/config.js');
  const { createCms } = await import('../dist/runtime.js');
  const { startServer } = await import('../dist/http/node-server.js');
  const config = loadConfig({ cwd: process.env.BENCH_DIR, env: process.env });
  const cms = await createCms({ ...config, port: 0, host: '127.0.0.1' });
  const server = await startServer(cms, { port: 0, host: '127.0.0.1' });
  return { port: server.port, close: async () => { await server.close(); await cms.close(); } };
}

/** Answers every request with the status, headers and bytes the parent captured from the cms. */
async function startRaw() {
  const { status, headers, body } = JSON.parse(process.env.BENCH_RAW_RESPONSE ?? '{}');
  const bytes = Buffer.from(body, 'base64');
  const server = createServer((req, res) => {
    res.writeHead(status, headers);
    res.end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/**
 * The write baseline: a bare node:http server that inserts the page each POST sends into the
 * pages table, one plain INSERT per request with the plain driver (postgres.js or PGlite) on
 * the same database, and answers 201 with the new id.
 */
async function startRawInsert() {
  const url = process.env.DATABASE_URL;
  let query;
  let end;
  if (url) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(url, { max: 10, onnotice: () => {} });
    query = (text, params) => sql.unsafe(text, params, { prepare: true });
    end = () => sql.end({ timeout: 5 });
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const { join } = await import('node:path');
    const db = new PGlite(join(process.env.CMS_DATA_DIR, 'db'));
    await db.waitReady;
    query = async (text, params) => (await db.query(text, params)).rows;
    end = () => db.close();
  }
  const [type] = await query('select id, project_id from page_types where slug = $1', [process.env.BENCH_PAGE_TYPE]);
  const insert = 'insert into pages (project_id, page_type_id, name, slug, draft_content, seo) values ($1, $2, $3, $4, $5, $6) returning id';
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const [row] = await query(insert, [type.project_id, type.id, body.name, body.slug, JSON.stringify(body.fields ?? {}), JSON.stringify(body.seo ?? {})]);
        const out = JSON.stringify({ data: { id: row.id } });
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
      } catch (e) {
        res.writeHead(500).end(String(e));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: async () => { await new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }); await end(); },
  };
}

const running = mode === 'raw' ? await startRaw() : mode === 'raw-insert' ? await startRawInsert() : await startCms();
process.send({ ready: true, port: running.port, pid: process.pid });
process.on('message', async (msg) => {
  // CPU time the server spent, so the parent can give it per request (a figure that a busy
  // machine disturbs far less than requests per second).
  if (msg?.cpu) process.send({ cpu: process.cpuUsage() });
  if (msg?.stop) {
    await running.close().catch((e) => console.error(e));
    process.send({ stopped: true }, () => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
