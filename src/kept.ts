import { LRUCache } from 'lru-cache';
import type { ReadMemory } from './core/context.js';
import type { Db } from './db/client.js';

/**
 * What the server keeps between requests, bounded by bytes (`server.cacheMegabytes`) and shared
 * out in two halves, each its own LRU over every project: `answers`, the response cache's whole
 * answers (src/http/cache.ts; a quarter of this half is the arena where the bodies of answers
 * asked for once wait), and `parts`, what public lists are made of (`ReadMemory`,
 * src/core/content/delivery.ts). Halves, so that a flood of answers asked for once (a crawler
 * walking every page of every sort) cannot push out the parts that make such answers cheap.
 *
 * Everything kept belongs to its project's generation. Every content change of the project (a
 * write here, a notice or a revision poll from another process: `changed`, called by the
 * runtime) starts a new one, and nothing of an older generation is read again; it is dropped
 * when next looked up, replaced, or evicted. A value computed across a change is not kept.
 */
export interface Kept {
  /** True once a server answers from what is kept: change notices are followed from then on (src/runtime.ts). */
  readonly followed: boolean;
  follow(): void;
  /** Calls `fn` when this engine starts answering from what is kept (at once when it already does). */
  onFollow(fn: () => void): void;
  /**
   * What a read waits for before it looks at anything kept, or undefined when it need not wait:
   * while other servers share the database (PostgreSQL), a revision poll begun after the call, so
   * that their writes that committed before the request came are seen (src/runtime.ts). Their
   * notices alone arrive a moment later, and a read on this server right after a write answered
   * by another one was served the old answer for 10–100 ms.
   */
  barrier(): Promise<void> | undefined;
  setBarrier(fn: () => Promise<void> | undefined): void;
  generation(projectId: string): number;
  changed(projectId: string): void;
  readonly answers: KeptShelf;
  /** The quarter of the answers' half where the bodies of answers not asked for again yet wait (src/http/cache.ts). */
  readonly answerArena: BodyArena;
  readonly parts: KeptShelf;
}

export interface KeptShelf {
  /** The value kept under the key in this generation of the project, if any. */
  get(projectId: string, generation: number, key: string): unknown;
  /** Keeps a value of the generation, `bytes` about what it holds in memory; not when the project has moved on, or when larger than the shelf. */
  set(projectId: string, generation: number, key: string, value: unknown, bytes: number): void;
}

export function createKept(maxBytes: number): Kept {
  let followed = false;
  const whenFollowed: Array<() => void> = [];
  let barrier: () => Promise<void> | undefined = () => undefined;
  // A quarter of the answers' half: at the default 64 MB, 8 MB of bodies waiting for a second ask.
  const arenaBytes = Math.floor(maxBytes / 8);
  const generations = new Map<string, number>();
  const generation = (projectId: string) => generations.get(projectId) ?? 0;
  const shelf = (bytes: number): KeptShelf => {
    const lru = new LRUCache<string, { gen: number; value: unknown; bytes: number }>({
      maxSize: Math.max(1, bytes),
      sizeCalculation: (slot) => slot.bytes,
    });
    const fullKey = (projectId: string, key: string) => `${projectId}\n${key}`;
    return {
      get(projectId, gen, key) {
        const full = fullKey(projectId, key);
        const slot = lru.get(full);
        if (!slot) return undefined;
        if (slot.gen === gen) return slot.value;
        if (slot.gen < generation(projectId)) lru.delete(full);
        return undefined;
      },
      set(projectId, gen, key, value, size) {
        if (generation(projectId) !== gen) return;
        lru.set(fullKey(projectId, key), { gen, value, bytes: Math.max(1, size) });
      },
    };
  };
  return {
    get followed() { return followed; },
    follow() {
      if (followed) return;
      followed = true;
      for (const fn of whenFollowed.splice(0)) fn();
    },
    onFollow(fn) {
      if (followed) fn();
      else whenFollowed.push(fn);
    },
    barrier: () => barrier(),
    setBarrier(fn) { barrier = fn; },
    generation,
    changed(projectId) { generations.set(projectId, generation(projectId) + 1); },
    answers: shelf(Math.floor(maxBytes / 2) - arenaBytes),
    answerArena: createBodyArena(arenaBytes),
    parts: shelf(Math.ceil(maxBytes / 2)),
  };
}

/**
 * Where the bodies of answers asked for once wait to be asked for again: one buffer, allocated
 * once and written round and round, so that a body is a copy into it rather than a buffer of its
 * own. Most answers of a list never seen before are never asked for again, and a buffer of each
 * one's own that the cache held for a while outlived V8's young generation: it was freed only by
 * full collections, which V8 starts on the external memory such buffers pile up, one every
 * fraction of a second under a stream of new lists, each a pause of several milliseconds
 * (bench: the p99 of never-seen lists). A body is good until later bodies have written over it;
 * the first hit copies it out to a buffer of its own. A body larger than an eighth of the arena
 * is not put there.
 */
export function createBodyArena(bytes: number): BodyArena {
  let slab: Buffer | null = null;
  /** Bytes written so far, counted from the start and never wrapped: a body at `at` is good while `written <= at + bytes`. */
  let written = 0;
  return {
    put(body: Buffer): number | null {
      if (body.length === 0 || body.length > bytes / 8) return null;
      slab ??= Buffer.allocUnsafeSlow(bytes);
      let at = written;
      // A body is never split across the end: it starts again at the beginning.
      if ((at % bytes) + body.length > bytes) at += bytes - (at % bytes);
      body.copy(slab, at % bytes);
      written = at + body.length;
      return at;
    },
    take(at: number, length: number): Buffer | null {
      if (!slab || written > at + bytes) return null;
      const start = at % bytes;
      return Buffer.from(slab.subarray(start, start + length));
    },
  };
}

export interface BodyArena {
  /** Copies the body into the arena and says where it is; null when it is too large for it (or empty). */
  put(body: Buffer): number | null;
  /** A copy of the body put at `at`, or null when later bodies have written over it. */
  take(at: number, length: number): Buffer | null;
}

/**
 * The core's port onto what is kept (`services.readMemory`): only while the server follows change
 * notices (a CLI command or a program on the Local API keeps nothing: it has no one to tell it of
 * another process's writes), only with the response cache on, and only for reads on the engine's
 * own `db` (a transaction may see rows no one else sees).
 */
export function createReadMemory(db: Db, kept: Kept, options: { enabled: boolean }): ReadMemory {
  return {
    generation: (on, projectId) => (options.enabled && on === db && kept.followed ? kept.generation(projectId) : null),
    get: (projectId, gen, key) => kept.parts.get(projectId, gen, key),
    set: (projectId, gen, key, value, bytes) => kept.parts.set(projectId, gen, key, value, bytes + key.length),
  };
}
