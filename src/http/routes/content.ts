import type { RouteDef } from '../app.js';

export const contentRoutes: RouteDef[] = [];
