import type { SettingsProps } from './SettingsScreen';
import { MigrationDetail } from './migrations/MigrationDetail';
import { MigrationList } from './migrations/MigrationList';
import { NewMigrationForm } from './migrations/NewMigrationForm';
import './migrations/migrations.css';

// Migrations from ButterCMS (docs/admin-app.md, "Migrations"): the list, a form that starts one,
// and one migration's live progress, log and report. Paths below /p/:project/settings/migrations:
// nothing (the list), `new` (the form), `:id` (one migration).
export function MigrationsScreen({ project, rest }: SettingsProps) {
  const [first] = rest;
  if (first === 'new') return <NewMigrationForm project={project} />;
  if (first) return <MigrationDetail project={project} id={first} />;
  return <MigrationList project={project} />;
}
