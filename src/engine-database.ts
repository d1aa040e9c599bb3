// The first thing an engine does: make its data folder private and open (and upgrade) its database.
// Kept apart from runtime.ts, whose imports (every operation and service) take a while to load: the
// CLI starts opening the database with this module, then loads the engine while PGlite starts.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CmsConfig } from './config.js';
import type { Logger } from './core/context.js';
import { createDb, isPostgresUrl, type DbHandle } from './db/client.js';
import { makePrivateFolder, securePrivateTree } from './db/private-folder.js';

/** Written by a clean close, after its walk: every file of the database folder is private. */
const tightenedMark = (dataDir: string) => join(dataDir, 'db.tightened');

/** Removes the mark; true when it was there. */
function takeMark(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch {
    return false;
  }
}

/** `databaseUrl` for an embedded database kept in memory (gone when the engine closes). */
export const inMemoryDatabaseUrl = 'memory://';

/**
 * Folder times are those of the file system, which may lag the process's clock a little: a folder
 * changed this long before the last walk is walked again.
 */
const folderTimeSlackMs = 2_000;

export interface EngineDatabase {
  handle: DbHandle;
  /** False for a handle the caller lent (`CreateCmsOptions.handle`): the caller closes it. */
  owned: boolean;
  /** Tightens the files the database wrote since it was opened; runs after it closed. */
  secureAfterClose(): void;
}

/**
 * Makes the data folder private (a folder made by an older version, or by hand, is tightened with
 * a warning), opens the database the configuration names, or takes the lent one, and applies the
 * shipped database migrations (unless `migrate: false`). `config` is a resolved configuration
 * (`resolveConfig`'s).
 */
export async function openEngineDatabase(config: CmsConfig, log: Logger, lent?: DbHandle, options: { migrate?: boolean } = {}): Promise<EngineDatabase> {
  // The data folder holds password hashes and webhook secrets: the owner's only.
  const inMemory = config.databaseUrl === inMemoryDatabaseUrl;
  const embeddedDir = !lent && !inMemory && !isPostgresUrl(config.databaseUrl) ? join(config.dataDir, 'db') : null;
  // Folders only: the database's files are tightened once it is open (PGlite writes its files
  // world-readable whatever the umask), which covers the ones it had before.
  const loosened = securePrivateTree(config.dataDir, { files: false });
  if (embeddedDir) makePrivateFolder(config.dataDir);
  if (loosened.length) {
    // Rare (an old or copied folder), so worth a walk over every file, media included.
    securePrivateTree(config.dataDir);
    log.warn(`The data folder ${config.dataDir} could be read by other users of this machine; it is now private (folders 0700, files 0600)`, { folders: loosened.length });
  }
  const handle = lent ?? (await createDb({ databaseUrl: config.databaseUrl, preparedStatements: config.preparedStatements, dataDir: inMemory ? inMemoryDatabaseUrl : embeddedDir ?? undefined }));
  try {
    // `cms db status` opens it as it is, to tell what is pending.
    if (options.migrate !== false) await handle.migrateDatabase();
  } catch (e) {
    if (!lent) await handle.close().catch(() => {});
    throw e;
  }
  // Every file now, unless the last engine on this folder closed it cleanly (its walk on close
  // left every file private), and on close the folders that changed meanwhile (a new file changes
  // its folder). The mark is taken away while the database is open: an engine that dies leaves
  // none, and the next one walks every file again.
  const openedAt = Date.now();
  const mark = tightenedMark(config.dataDir);
  if (embeddedDir && !takeMark(mark)) securePrivateTree(embeddedDir);
  return {
    handle,
    owned: !lent,
    secureAfterClose() {
      if (!embeddedDir) return;
      securePrivateTree(embeddedDir, { filesIn: { foldersChangedSince: openedAt - folderTimeSlackMs } });
      try { writeFileSync(mark, `${new Date().toISOString()}\n`, { mode: 0o600 }); } catch { /* the next open walks every file */ }
    },
  };
}
