/** The blog operations, by name; core/registry.ts merges them into the one table. */
export const blogOperations = {} as const;
