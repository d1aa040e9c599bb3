// The raw baseline of the bench's never-seen list scenario, run as a child process like
// server.mjs: a bare node:http server that answers GET /?sort=…&page=…&limit=… with a page of
// published pages (id, name, slug, published content, SEO, dates, in the contract's order) and
// their COUNT(*), straight from the database with the plain driver: PGlite on the data folder
// (which only one process can open: the cms server is stopped first) or postgres.js on
// DATABASE_URL. No references are resolved and nothing is cached or kept between requests.
import { createServer } from 'node:http';
import { join } from 'node:path';

const columns = { createdAt: 'created_at', updatedAt: 'updated_at', publishedAt: 'published_at', name: 'name', slug: 'slug' };

async function openDatabase() {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import('postgres');
    const client = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });
    return { query: (text, params) => client.unsafe(text, params), close: () => client.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(join(process.env.CMS_DATA_DIR, 'db'));
  await db.waitReady;
  return { query: async (text, params) => (await db.query(text, params)).rows, close: () => db.close() };
}

const db = await openDatabase();
const [project] = await db.query('select id from projects limit 1', []);

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://x');
    const raw = url.searchParams.get('sort') ?? '-publishedAt';
    const desc = raw.startsWith('-');
    const column = columns[desc ? raw.slice(1) : raw];
    if (!column) throw new Error(`sort ${raw}`);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const page = Number(url.searchParams.get('page') ?? 1);
    const order = `${column} ${desc ? 'desc' : 'asc'}${column === 'published_at' ? ' nulls last' : ''}, id asc`;
    const where = `project_id = $1 and deleted_at is null and status = 'published'`;
    const [rows, [{ n }]] = await Promise.all([
      db.query(`select id, name, slug, published_content as fields, published_seo as seo, published_at as "publishedAt", updated_at as "updatedAt"
        from pages where ${where} order by ${order} limit ${limit} offset ${(page - 1) * limit}`, [project.id]),
      db.query(`select count(*)::int as n from pages where ${where}`, [project.id]),
    ]);
    const body = JSON.stringify({ data: rows, pagination: { total: n, page, limit, totalPages: Math.ceil(n / limit) } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch (e) {
    res.writeHead(500).end(String(e));
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.send({ ready: true, port: server.address().port, pid: process.pid });
process.on('message', async (msg) => {
  if (msg?.cpu) process.send({ cpu: process.cpuUsage() });
  if (msg?.stop) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.close();
    process.send({ stopped: true }, () => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
