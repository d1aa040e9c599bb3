/** The media operations, by name; core/registry.ts merges them into the one table. */
export const mediaOperations = {} as const;
