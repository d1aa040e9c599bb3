import type { ReactNode } from 'react';
import { atLeast, type Me, type Role } from '../api';
import { EmptyState, Link } from '../ui';
import { AccountScreen } from './AccountScreen';
import { KeysScreen } from './KeysScreen';
import { LocalesScreen } from './LocalesScreen';
import { MembersScreen } from './MembersScreen';
import { MigrationsScreen } from './MigrationsScreen';
import { SchemasScreen } from './SchemasScreen';
import { WebhooksScreen } from './WebhooksScreen';

// The team's settings (admin app part 2): each area is shown only to the roles the admin API allows
// (docs/admin.md), and a member who opens one anyway is told why instead of meeting a failure.

export interface SettingsProps { me: Me; project: string; role: Role; rest: string[] }

interface Area { key: string; label: string; minRole: Role; why: string; render(props: SettingsProps): ReactNode }

export const settingsAreas: Area[] = [
  { key: 'schemas', label: 'Schemas', minRole: 'developer', why: 'Page types, collections and components are managed by developers, admins and owners.', render: (p) => <SchemasScreen {...p} /> },
  { key: 'webhooks', label: 'Webhooks', minRole: 'developer', why: 'Webhooks are managed by developers, admins and owners.', render: (p) => <WebhooksScreen {...p} /> },
  { key: 'migrations', label: 'Migrations', minRole: 'developer', why: 'Migrations are run by developers, admins and owners.', render: (p) => <MigrationsScreen {...p} /> },
  // Every member reads the locales; the screen shows its write controls to admins and owners only.
  { key: 'locales', label: 'Locales', minRole: 'viewer', why: '', render: (p) => <LocalesScreen {...p} /> },
  { key: 'keys', label: 'API keys', minRole: 'admin', why: 'API keys are managed by admins and owners.', render: (p) => <KeysScreen {...p} /> },
  { key: 'members', label: 'Members', minRole: 'admin', why: 'Members are managed by admins and owners.', render: (p) => <MembersScreen {...p} /> },
  { key: 'account', label: 'Account', minRole: 'viewer', why: '', render: (p) => <AccountScreen {...p} /> },
];

export function SettingsScreen({ area, ...props }: SettingsProps & { area: string }) {
  const found = settingsAreas.find((a) => a.key === area);
  if (!found) return <EmptyState title="Not found">There is no such settings page.</EmptyState>;
  if (!atLeast(props.role, found.minRole)) {
    return (
      <EmptyState title={`${found.label}: not available to your role`}>
        You are {/^[aeiou]/.test(props.role) ? 'an' : 'a'} {props.role} of this project. {found.why} Ask an admin of the project if you need access.
      </EmptyState>
    );
  }
  return <>{found.render(props)}</>;
}

/** The Settings group of the side navigation: only the areas this role may open. */
export function SettingsNav({ project, role, current }: { project: string; role: Role; current: string | null }) {
  const areas = settingsAreas.filter((a) => atLeast(role, a.minRole));
  return (
    <div className="navgroup">
      <h2>Settings</h2>
      <ul>
        {areas.map((a) => (
          <li key={a.key}>
            <Link to={`/p/${encodeURIComponent(project)}/settings/${a.key}`} current={current === a.key} className="navlink">
              <span className="clip">{a.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
