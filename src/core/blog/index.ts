import { blogDeliveryOperations } from './delivery.js';
import { createPost, deletePost, getPost, listPosts, publishPost, unpublishPost, updatePost } from './posts.js';
import {
  authorOperations, createCategory, createTag, deleteCategory, deleteTag, getCategory, getTag, listCategories, listTags,
  updateCategory, updateTag,
} from './taxonomies.js';

export { slugify } from './schemas.js';

/** The blog operations, by name; core/registry.ts merges them into the one table. No webhook events. */
export const blogOperations = {
  'blog.posts.create': createPost,
  'blog.posts.update': updatePost,
  'blog.posts.publish': publishPost,
  'blog.posts.unpublish': unpublishPost,
  'blog.posts.delete': deletePost,
  'blog.posts.get': getPost,
  'blog.posts.list': listPosts,
  ...authorOperations,
  'blog.categories.create': createCategory,
  'blog.categories.update': updateCategory,
  'blog.categories.delete': deleteCategory,
  'blog.categories.get': getCategory,
  'blog.categories.list': listCategories,
  'blog.tags.create': createTag,
  'blog.tags.update': updateTag,
  'blog.tags.delete': deleteTag,
  'blog.tags.get': getTag,
  'blog.tags.list': listTags,
  ...blogDeliveryOperations,
} as const;
