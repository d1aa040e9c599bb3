export const migrationsPath = (project: string) => `/p/${encodeURIComponent(project)}/settings/migrations`;
export const migrationPath = (project: string, id: string) => `${migrationsPath(project)}/${encodeURIComponent(id)}`;
