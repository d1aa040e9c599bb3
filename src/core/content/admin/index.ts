/** Admin-only content operations (clone, versions, bulk, scheduling…); merged into contentOperations. */
export const adminContentOperations = {} as const;
