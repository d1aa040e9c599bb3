import type { SettingsProps } from './SettingsScreen';
import { EmptyState } from '../ui';

// PLACEHOLDER: replaced by the Keys screen.
export function KeysScreen(_props: SettingsProps) {
  return <EmptyState title="Not built yet">This settings page is not built yet.</EmptyState>;
}
