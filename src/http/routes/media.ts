import type { RouteDef } from '../app.js';

export const mediaRoutes: RouteDef[] = [];
