import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';

export const projects = pgTable('projects', {
  id: id(),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  /**
   * The project's locales, in the order they were added: codes, names and fallbacks (see
   * core/locales). Every project has at least one; the default locale's values are the entries'
   * own content columns, the others' live beside them (`*_locales`).
   */
  locales: jsonb('locales').$type<StoredLocale[]>().notNull().default(sql`'[{"code":"en","name":"English","fallback":null}]'::jsonb`),
  defaultLocale: text('default_locale').notNull().default('en'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('projects_slug_uq').on(t.slug)]);

/** A locale as the project row keeps it. */
export interface StoredLocale {
  code: string;
  name: string;
  fallback: string | null;
}

export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('users_email_uq').on(t.email)]);

export const memberships = pgTable('memberships', {
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').notNull(),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('memberships_user_idx').on(t.userId)]);

export const sessions = pgTable('sessions', {
  id: id(),
  tokenHash: text('token_hash').notNull(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: ts('expires_at').notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)]);

/**
 * Sign-in attempts inside the throttle window, one row per counted key (an account, a client
 * address). A row is written before the password is checked, so attempts sent at once are
 * counted before any of them is answered; a success removes its own rows.
 */
export const loginAttempts = pgTable('login_attempts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** SHA-256 of `account:<email>` or `address:<ip>`: no email or address is stored as such. */
  keyHash: text('key_hash').notNull(),
  attemptedAt: ts('attempted_at').notNull(),
}, (t) => [index('login_attempts_key_idx').on(t.keyHash, t.attemptedAt), index('login_attempts_at_idx').on(t.attemptedAt)]);

/** Client addresses a user has signed in from: failures of others there do not lock the user out. */
export const loginKnownAddresses = pgTable('login_known_addresses', {
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** SHA-256 of the address. */
  addressHash: text('address_hash').notNull(),
  lastSuccessAt: ts('last_success_at').notNull(),
}, (t) => [primaryKey({ columns: [t.userId, t.addressHash] })]);

export const apiKeys = pgTable('api_keys', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  name: text('name').notNull(),
  keyHash: text('key_hash').notNull(),
  /** The first characters of the key, so lists can tell keys apart without showing them. */
  keyPrefix: text('key_prefix').notNull(),
  permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
  createdAt: createdAt(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
}, (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_project_idx').on(t.projectId)]);

/**
 * A project's content revision is the SUM of its rows: every committed content write adds 1 to
 * one slot, so the sum grows with every commit whatever their order. Response caches compare it
 * (or hear a NOTIFY on PostgreSQL) to drop entries written by another process. Writers on
 * PostgreSQL spread over several slots, so they do not all wait for one row lock until commit.
 */
export const contentRevisions = pgTable('content_revisions', {
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  slot: smallint('slot').notNull().default(0),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
}, (t) => [primaryKey({ columns: [t.projectId, t.slot] })]);
