import { type CmsConfig } from '../../src/config.js';
import type { Actor } from '../../src/core/actor.js';
import type { Clock, Services } from '../../src/core/context.js';
import { type Cms } from '../../src/runtime.js';
export interface TestCms {
    cms: Cms;
    config: CmsConfig;
    /** A temporary folder for media and other files of this engine. */
    dir: string;
    /** Runs an operation as the terminal (full rights) in the default project. */
    run(op: string, input: unknown, actor?: Actor): Promise<any>;
    close(): Promise<void>;
}
export interface TestCmsOptions {
    clock?: Clock;
    config?: Partial<CmsConfig>;
    /** Ports handed to the engine instead of its own (a media store the test controls). */
    services?: Services;
}
/** An engine on a fresh database (PGlite in memory, or PostgreSQL when DATABASE_URL is set). */
export declare function createTestCms(options?: TestCmsOptions): Promise<TestCms>;
/** A clock the test moves by hand. */
export declare function createManualClock(start?: Date): Clock & {
    advance(ms: number): void;
    set(d: Date): void;
};
