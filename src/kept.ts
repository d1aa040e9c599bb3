import { LRUCache } from 'lru-cache';
import type { ReadMemory } from './core/context.js';
import type { Db } from './db/client.js';

/**
 * What the server keeps between requests, bounded by bytes (`server.cacheMegabytes`) and shared
 * out in two halves, each its own LRU over every project: `answers`, the response cache's whole
 * answers (src/http/cache.ts), and `parts`, what public lists are made of (`ReadMemory`,
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
  generation(projectId: string): number;
  changed(projectId: string): void;
  readonly answers: KeptShelf;
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
    follow() { followed = true; },
    generation,
    changed(projectId) { generations.set(projectId, generation(projectId) + 1); },
    answers: shelf(Math.floor(maxBytes / 2)),
    parts: shelf(Math.ceil(maxBytes / 2)),
  };
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
