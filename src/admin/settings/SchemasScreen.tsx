import { lazy, Suspense } from 'react';
import type { SettingsProps } from './SettingsScreen';
import { Loading } from '../ui';

// The schema builder (settings/schemas/): loaded on demand, as it brings the server's schema
// validation (zod) with it, which the first screen does not need.
const SchemaBuilder = lazy(() => import('./schemas/SchemaBuilder').then((m) => ({ default: m.SchemaBuilder })));

export function SchemasScreen(props: SettingsProps) {
  return (
    <Suspense fallback={<Loading label="Loading the schema builder…" />}>
      <SchemaBuilder {...props} />
    </Suspense>
  );
}
