import { LRUCache } from 'lru-cache';
import type { ReadMemory } from './core/context.js';
import type { Db } from './db/client.js';

/**
 * What the public lists are made of, kept in memory between requests (`ReadMemory`): the ordered
 * ids of a list in chunks, its total, and each entry's read shape. Everything a project keeps
 * belongs to its generation, which every content change (`changed`, called wherever the response
 * cache hears of one: a write here, a notice or a revision poll from another process) moves on;
 * older values are never used again and fall out of the LRU. Bounded by bytes.
 *
 * It works only while `watched()` says change notices are being followed (the server's response
 * cache listens for them; a CLI command does not), only for reads on the engine's own `db` (a
 * transaction may see rows no one else sees), and never when `enabled` is false (the response
 * cache turned off: every answer is computed).
 */
export function createReadMemory(db: Db, options: { enabled: boolean; maxBytes: number; watched: () => boolean }): ReadMemory {
  const generations = new Map<string, number>();
  const lru = new LRUCache<string, { value: unknown; bytes: number }>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (slot) => slot.bytes,
  });
  const fullKey = (projectId: string, gen: number, key: string) => `${projectId} ${gen}\n${key}`;
  return {
    generation(on, projectId) {
      if (!options.enabled || on !== db || !options.watched()) return null;
      return generations.get(projectId) ?? 0;
    },
    get(projectId, gen, key) {
      return lru.get(fullKey(projectId, gen, key))?.value;
    },
    set(projectId, gen, key, value, bytes) {
      // A value computed across a change belongs to no generation anyone reads any more.
      if ((generations.get(projectId) ?? 0) !== gen || bytes > options.maxBytes) return;
      lru.set(fullKey(projectId, gen, key), { value, bytes: bytes + key.length + 64 });
    },
    changed(projectId) {
      generations.set(projectId, (generations.get(projectId) ?? 0) + 1);
    },
  };
}
