/** The auth operations, by name; core/registry.ts merges them into the one table. */
export const authOperations = {} as const;
