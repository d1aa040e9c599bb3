/** The content operations, by name; core/registry.ts merges them into the one table. */
export const contentOperations = {} as const;
