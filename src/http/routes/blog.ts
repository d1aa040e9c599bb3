import type { RouteDef } from '../app.js';

export const blogRoutes: RouteDef[] = [];
