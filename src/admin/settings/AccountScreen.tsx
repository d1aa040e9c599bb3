import type { SettingsProps } from './SettingsScreen';
import { EmptyState } from '../ui';

// PLACEHOLDER: replaced by the Account screen.
export function AccountScreen(_props: SettingsProps) {
  return <EmptyState title="Not built yet">This settings page is not built yet.</EmptyState>;
}
