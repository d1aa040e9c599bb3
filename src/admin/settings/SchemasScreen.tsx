import type { SettingsProps } from './SettingsScreen';
import { EmptyState } from '../ui';

// PLACEHOLDER: replaced by the Schemas screen.
export function SchemasScreen(_props: SettingsProps) {
  return <EmptyState title="Not built yet">This settings page is not built yet.</EmptyState>;
}
