import type { RouteDef } from '../app.js';

export const migrationRoutes: RouteDef[] = [];
