import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every timestamp is stored with its zone so PGlite and PostgreSQL agree on instants. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => ts('created_at').notNull().defaultNow();
export const updatedAt = () => ts('updated_at').notNull().defaultNow();
