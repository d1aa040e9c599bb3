import type { PGlite } from '@electric-sql/pglite';

type Module = typeof import('@electric-sql/pglite');
type ParseResults = Module['parse']['parseResults'];
type Results = ReturnType<ParseResults>[number];
type BackendMessage = Parameters<ParseResults>[0][number];
type QueryOptions = Parameters<ParseResults>[2];

/** At most this many named statements per PGlite instance: the least recently run is closed for a new one. */
const maxNamed = 200;

/**
 * Runs the queries of PGlite transactions as named prepared statements, in one call into
 * PostgreSQL each.
 *
 * PGlite runs every query as an unnamed statement, in six calls into its WebAssembly: parse,
 * describe the parameters, bind, describe the portal, execute, sync. PostgreSQL therefore parses
 * and plans the statement every time: for the content type's read inside a write, about 250 µs
 * of its 370 µs. A named statement is parsed once; PostgreSQL plans it for its values for the
 * first five runs and then, where a plan for any values costs no more, keeps one (its
 * `plan_cache_mode` is left at the default, as for any client that prepares). Each run is bind,
 * describe, execute and sync sent together, and its answer is read with PGlite's own parser and
 * row mapping, with the instance's type parsers: the rows are the ones `query` gives. The
 * statements of a write are the same few texts every time; at most `maxNamed` are kept, the
 * least recently run closed for a new one.
 *
 * Only inside a transaction: PGlite writes its files after a statement outside one, and hands
 * out the notifications a commit brings, neither of which this path does. Parameters are sent as
 * PGlite sends them (text: `true`, `5`, dates in ISO form, which a typed parameter reads as
 * PGlite's serializers write it); a statement with an object or binary parameter goes the usual
 * way. A failed run forgets its statement, so the next one prepares it again (closing the old one
 * first, which is no error when it is absent).
 */
export function namedOnPglite(client: PGlite, pglite: Pick<Module, 'protocol' | 'parse'>) {
  const { serialize, Parser } = pglite.protocol;
  const names = new Map<string, string>();
  /** Statements to close (a failed run's, the least recently run): closed before the next is prepared. */
  const stale: string[] = [];
  let counter = 0;

  async function runNamed(text: string, values: Array<string | null>, options: QueryOptions | undefined): Promise<Results> {
    let name = names.get(text);
    const parts: Uint8Array[] = [];
    const closing: string[] = [];
    if (name) {
      // The most recently run last: the first is the one to close.
      names.delete(text);
      names.set(text, name);
    } else {
      name = `cms_${++counter}`;
      if (names.size >= maxNamed) {
        const [oldest] = names;
        if (oldest) { names.delete(oldest[0]); stale.push(oldest[1]); }
      }
      for (const old of stale.splice(0)) {
        closing.push(old);
        parts.push(serialize.close({ type: 'S', name: old }));
      }
      parts.push(serialize.parse({ name, text }));
      names.set(text, name);
    }
    parts.push(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync());
    const answer = await client.execProtocolRaw(concat(parts), { syncToFs: false });
    const messages: BackendMessage[] = [];
    let failure: Error | null = null;
    new Parser().parse(answer, (message) => {
      if (message instanceof Error) failure ??= message;
      messages.push(message);
    });
    if (failure) {
      // Nothing after the error ran: the statements being closed are closed next time.
      names.delete(text);
      stale.push(...closing, name);
      throw failure;
    }
    const [result] = pglite.parse.parseResults(messages, client.parsers, options);
    if (!result) throw new Error(`no result from ${text}`);
    return result;
  }

  return {
    /** The query's result, or undefined when a parameter is not one to send this way (the caller runs it as usual). */
    run(text: string, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<Results> | undefined {
      const values = encode(params ?? []);
      if (!values) return undefined;
      return client._runExclusiveQuery(() => runNamed(text, values, options));
    },
  };
}

/** Parameters as PGlite sends them for their types; null when one is an object or binary (sent the usual way). */
function encode(values: unknown[]): Array<string | null> | null {
  const out: Array<string | null> = [];
  for (const v of values) {
    if (v === null || v === undefined) out.push(null);
    else if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'bigint') out.push(String(v));
    else if (typeof v === 'boolean') out.push(String(v));
    else if (v instanceof Date) out.push(v.toISOString());
    else return null;
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.byteLength; }
  return out;
}
