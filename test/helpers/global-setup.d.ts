/**
 * A fresh PGlite runs initdb, which takes several seconds; every suite instead starts from a
 * dump of one migrated database, made once per set of migrations.
 */
export default function setup(): Promise<void>;
export declare function templatePath(): string;
