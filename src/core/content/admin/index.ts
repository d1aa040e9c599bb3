import { autosaveItem, autosavePage } from './autosave.js';
import { bulkDeleteItems, bulkDeletePages, bulkPublishItems, bulkPublishPages, bulkUnpublishItems, bulkUnpublishPages } from './bulk.js';
import { cloneItem, clonePage } from './clone.js';
import { publishDue } from './publish-due.js';
import { resolveItemConflict, resolvePageConflict } from './resolve-conflict.js';
import { scheduleItem, schedulePage, unscheduleItem, unschedulePage } from './schedule.js';
import { getItemVersion, getPageVersion, listItemVersions, listPageVersions, restoreItem, restorePage } from './versions.js';

export {
  bulkActions, runBulk,
  type BulkAction, type BulkInput, type BulkItemInput, type BulkOperationName, type BulkResult,
} from './bulk.js';
export type { VersionDetail, VersionView } from './versions.js';

/** Admin-only content operations (clone, versions, bulk, scheduling…); merged into contentOperations. */
export const adminContentOperations = {
  'pages.clone': clonePage,
  'pages.versions': listPageVersions,
  'pages.version': getPageVersion,
  'pages.restore': restorePage,
  'pages.resolveConflict': resolvePageConflict,
  'pages.bulkDelete': bulkDeletePages,
  'pages.bulkPublish': bulkPublishPages,
  'pages.bulkUnpublish': bulkUnpublishPages,
  'pages.schedule': schedulePage,
  'pages.unschedule': unschedulePage,
  'pages.autosave': autosavePage,
  'items.clone': cloneItem,
  'items.versions': listItemVersions,
  'items.version': getItemVersion,
  'items.restore': restoreItem,
  'items.resolveConflict': resolveItemConflict,
  'items.bulkDelete': bulkDeleteItems,
  'items.bulkPublish': bulkPublishItems,
  'items.bulkUnpublish': bulkUnpublishItems,
  'items.schedule': scheduleItem,
  'items.unschedule': unscheduleItem,
  'items.autosave': autosaveItem,
  'content.publishDue': publishDue,
} as const;
