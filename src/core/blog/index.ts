import { blogDeliveryOperations } from './delivery.js';
import { createPost, deletePost, getPost, listPosts, publishPost, unpublishPost, updatePost } from './posts.js';
import { authorOperations, categoryOperations, tagOperations } from './taxonomies.js';

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
  'blog.categories.create': categoryOperations.create,
  'blog.categories.update': categoryOperations.update,
  'blog.categories.delete': categoryOperations.delete,
  'blog.categories.get': categoryOperations.get,
  'blog.categories.list': categoryOperations.list,
  'blog.tags.create': tagOperations.create,
  'blog.tags.update': tagOperations.update,
  'blog.tags.delete': tagOperations.delete,
  'blog.tags.get': tagOperations.get,
  'blog.tags.list': tagOperations.list,
  ...blogDeliveryOperations,
} as const;
