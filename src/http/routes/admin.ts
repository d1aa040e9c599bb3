import { opRoute, type RouteDef } from '../app.js';

export const adminRoutes: RouteDef[] = [
  opRoute('GET', '/api/v1/admin/keys', 'session', 'keys.list', () => ({})),
];
