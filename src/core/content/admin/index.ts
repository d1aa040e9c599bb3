import { autosaveOperation } from './autosave.js';
import { bulkItemOperation } from './bulk.js';
import { cloneOperation } from './clone.js';
import { publishDue } from './publish-due.js';
import { resolveConflictOperation } from './resolve-conflict.js';
import { scheduleOperation, unscheduleOperation } from './schedule.js';
import { restoreOperation, versionsOperation } from './versions.js';

export { bulkActions, bulkOperationName, runBulk, type BulkAction, type BulkInput, type BulkResult } from './bulk.js';
export type { VersionView } from './versions.js';

/** Admin-only content operations (clone, versions, bulk, scheduling…); merged into contentOperations. */
export const adminContentOperations = {
  'pages.clone': cloneOperation('page'),
  'pages.versions': versionsOperation('page'),
  'pages.restore': restoreOperation('page'),
  'pages.resolveConflict': resolveConflictOperation('page'),
  'pages.bulkDelete': bulkItemOperation('page', 'delete'),
  'pages.bulkPublish': bulkItemOperation('page', 'publish'),
  'pages.bulkUnpublish': bulkItemOperation('page', 'unpublish'),
  'pages.schedule': scheduleOperation('page'),
  'pages.unschedule': unscheduleOperation('page'),
  'pages.autosave': autosaveOperation('page'),
  'items.clone': cloneOperation('item'),
  'items.versions': versionsOperation('item'),
  'items.restore': restoreOperation('item'),
  'items.resolveConflict': resolveConflictOperation('item'),
  'items.bulkDelete': bulkItemOperation('item', 'delete'),
  'items.bulkPublish': bulkItemOperation('item', 'publish'),
  'items.bulkUnpublish': bulkItemOperation('item', 'unpublish'),
  'items.schedule': scheduleOperation('item'),
  'items.unschedule': unscheduleOperation('item'),
  'items.autosave': autosaveOperation('item'),
  'content.publishDue': publishDue,
} as const;
