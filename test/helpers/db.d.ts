import { type DbHandle } from '../../src/db/client.js';
/** Which database this run of the suite uses: PGlite always, PostgreSQL when DATABASE_URL says so. */
export declare const testDriver: 'pglite' | 'postgres';
/**
 * A fresh, empty database for one suite: an in-memory PGlite, or a new database on the
 * PostgreSQL server of DATABASE_URL (dropped again by `drop`).
 */
export declare function createTestDatabase(): Promise<{
    url: string | undefined;
    handle: () => Promise<DbHandle>;
    drop(): Promise<void>;
}>;
