import { useQuery } from '@tanstack/react-query';
import { apiData } from '../api';
import { excerpt, valueSource, type Locale, type LocalizedEntry } from './fieldDiff';
import './versions.css';

// The locale switcher of the entry editor (issue 13; docs/localization.md): in a project with more
// than one locale the editor reads and writes in the locale chosen, and each field says where the
// value shown comes from. With one locale there is no switcher and no indicator.

export function useLocales(project: string) {
  return useQuery({ queryKey: [project, 'locales'], queryFn: () => apiData<Locale[]>('/locales', { project }), staleTime: 60_000 });
}

export const defaultLocaleOf = (locales: readonly Locale[] | undefined): string | undefined => locales?.find((l) => l.default)?.code;

export function LocaleSwitcher({ locales, value, onChange, disabled }: {
  locales: readonly Locale[];
  value: string;
  onChange: (code: string) => void;
  disabled?: boolean;
}) {
  if (locales.length < 2) return null;
  return (
    <label className="field locale-switcher">
      <span>Editing in</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        {locales.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name} ({l.code}){l.default ? ', default' : l.fallback ? `, falls back to ${l.fallback}` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Under a field: "Shared by all locales", "Own value in fr", "Fallback from en" (the value a
 * reader of this locale gets, until one is written here), or "No value in any locale".
 * Nothing in a one-locale project.
 */
export function FieldSource({ entry, locales, locale, field, localized, id }: {
  entry: LocalizedEntry;
  locales: readonly Locale[];
  locale: string;
  field: string;
  localized: boolean;
  id?: string;
}) {
  if (locales.length < 2) return null;
  const source = valueSource(entry, locales, locale, field, localized);
  const text = source.kind === 'shared' ? 'Shared by all locales'
    : source.kind === 'own' ? `Own value in ${locale}`
      : source.kind === 'fallback' ? `Fallback from ${source.from}: readers in ${locale} see “${excerpt(source.value)}” until a value is written here`
        : `No value in ${locale} or its fallbacks`;
  return <p id={id} className={`field-source ${source.kind}`} data-source={field}>{text}</p>;
}
