import { type CmsConfig } from '../../src/config.js';
import type { Actor } from '../../src/core/actor.js';
import type { MigrationLogView, MigrationView } from '../../src/core/migrations/index.js';
import { type MigrationRunnerOptions, type ProcessMigrationRunner } from '../../src/importers/runner.js';
import { type Cms } from '../../src/runtime.js';
import type { FakeButter } from '../fakes/buttercms/server.js';
export interface ImportHarness {
    cms: Cms;
    config: CmsConfig;
    runner: ProcessMigrationRunner;
    dir: string;
    run<T = unknown>(op: string, input: unknown, actor?: Actor): Promise<T>;
    /** Creates a migration of the fake account, starts it, and waits until its run here has ended. */
    migrate(butter: FakeButter, mode: string, config?: Record<string, unknown>): Promise<MigrationView>;
    logs(id: string): Promise<MigrationLogView[]>;
    /** Row counts of everything an import may write. */
    contentCounts(): Promise<Record<CountedTable, number>>;
    /**
     * Closes this engine (as a server does when it stops) and opens another on the same database,
     * with a runner of its own; `cms`, `runner` and `run` then belong to the new one.
     */
    restart(): Promise<void>;
    close(): Promise<void>;
}
/** The fake's source config: its API, token and the page types and collections it is told about. */
export declare const fakeSourceConfig: (butter: FakeButter, extra?: Record<string, unknown>) => {
    apiKey: string;
    apiUrl: string;
    pageTypes: ("landing-page" | "product-page")[];
    collections: ("people" | "products" | "navigation_menu_item")[];
};
declare const countedTables: readonly ["page_types", "collection_types", "components", "pages", "collection_items", "media", "blog_posts", "blog_authors", "blog_categories", "blog_tags", "webhook_deliveries"];
export type CountedTable = (typeof countedTables)[number];
/** An engine on a fresh database whose migration runner spaces source requests by `minIntervalMs`. */
export declare function createImportHarness(options?: MigrationRunnerOptions): Promise<ImportHarness>;
export {};
