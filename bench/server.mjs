// The server side of `npm run bench`, run as a child process so that the server and the load
// generator each get a core of their own. Two modes:
//   node bench/server.mjs cms   the real server (startServer from dist/) on the seeded database
//   node bench/server.mjs raw   a bare node:http server answering fixed bytes (the baseline)
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

const running = mode === 'raw' ? await startRaw() : await startCms();
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
