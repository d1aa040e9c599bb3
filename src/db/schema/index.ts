export * from './projects.js';
export * from './types.js';
export * from './content.js';
export * from './media.js';
export * from './blog.js';
export * from './webhooks.js';
export * from './ops.js';
export * from './ai.js';
