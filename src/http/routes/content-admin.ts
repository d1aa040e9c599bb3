import type { RouteDef } from '../app.js';

/** Admin content paths under /api/v1/admin/pages and /api/v1/admin/collection-items. */
export const contentAdminRoutes: RouteDef[] = [];
