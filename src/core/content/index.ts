import { adminContentOperations } from './admin/index.js';
import { deliveryOperations } from './delivery.js';
import { itemOperations, pageOperations } from './operations.js';

/** Pages and collection items: writes, admin reads and public delivery. */
export const contentOperations = {
  'pages.create': pageOperations.create,
  'pages.update': pageOperations.update,
  'pages.publish': pageOperations.publish,
  'pages.unpublish': pageOperations.unpublish,
  'pages.delete': pageOperations.delete,
  'pages.get': pageOperations.get,
  'pages.list': pageOperations.list,
  'items.create': itemOperations.create,
  'items.update': itemOperations.update,
  'items.publish': itemOperations.publish,
  'items.unpublish': itemOperations.unpublish,
  'items.delete': itemOperations.delete,
  'items.get': itemOperations.get,
  'items.list': itemOperations.list,
  ...deliveryOperations,
  ...adminContentOperations,
} as const;

export { createEntry, updateEntry, publishEntry, unpublishEntry, deleteEntry, findEntry, findReferrers, toWriteShape } from './entries.js';
export { pageStore, itemStore, storeOf } from './store.js';
export type { EntryKind, EntryRef, EntryRow, EntryStore, EntryType } from './store.js';
