import type { RouteDef } from '../app.js';

export const webhookRoutes: RouteDef[] = [];
