import type { RouteDef } from '../app.js';

export const authRoutes: RouteDef[] = [];
