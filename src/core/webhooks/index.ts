/** The webhooks operations, by name; core/registry.ts merges them into the one table. */
export const webhookOperations = {} as const;
