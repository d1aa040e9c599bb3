// A fresh PostgreSQL database for one bench, on DATABASE_URL's server (default
// postgres://postgres@127.0.0.1:5432/test): created here, dropped by `drop()`.
import postgres from 'postgres';

/** Creates `<prefix>_<time>` and answers its URL and a `drop()` that removes it (errors go to `onDropError`). */
export async function freshPostgresDatabase(prefix, onDropError = () => {}) {
  const base = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    async drop() {
      const a = postgres(base, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`).catch((e) => onDropError(name, e));
      await a.end();
    },
  };
}
