import { adminContentOperations } from './admin/index.js';
import { deliveryOperations } from './delivery.js';
import {
  createItem, createPage, deleteItem, deletePage, getItem, getPage, listItems, listPages, publishItem, publishPage,
  unpublishItem, unpublishPage, updateItem, updatePage,
} from './operations.js';

/** Pages and collection items: writes, admin reads and public delivery. */
export const contentOperations = {
  'pages.create': createPage,
  'pages.update': updatePage,
  'pages.publish': publishPage,
  'pages.unpublish': unpublishPage,
  'pages.delete': deletePage,
  'pages.get': getPage,
  'pages.list': listPages,
  'items.create': createItem,
  'items.update': updateItem,
  'items.publish': publishItem,
  'items.unpublish': unpublishItem,
  'items.delete': deleteItem,
  'items.get': getItem,
  'items.list': listItems,
  ...deliveryOperations,
  ...adminContentOperations,
} as const;

export { createEntry, updateEntry, publishEntry, unpublishEntry, deleteEntry, findEntry, findReferrers, toWriteShape } from './entries.js';
export { pageStore, itemStore, storeOf } from './store.js';
export type { EntryKind, EntryRef, EntryRow, EntryStore, EntryType, WriteShapeOf } from './store.js';
