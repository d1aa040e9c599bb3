/** The migrations operations, by name; core/registry.ts merges them into the one table. */
export const migrationOperations = {} as const;
