import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, apiAll, apiData, type Entry, type Me } from '../api';
import { ErrorState, Loading } from '../ui';
import { TextDiff } from './DiffView';
import { diffFields, isRecord, type FieldChange, type Fields } from './fieldDiff';
import type { EditorField } from './ConflictDialog';
import './versions.css';

interface VersionView { version: number; createdAt: string; createdBy: string | null; status: string }
interface VersionDetail extends VersionView {
  name: string; slug: string; draftContent: Fields; seo?: Fields;
  draftLocales?: Record<string, Fields>; seoLocales?: Record<string, Fields>;
}

/** `user:<id>` and `terminal` as a person reads them; the member's email when the list knows it. */
function who(createdBy: string | null, people: ReadonlyMap<string, string>): string {
  if (!createdBy) return 'unknown';
  if (createdBy.startsWith('user:')) return people.get(createdBy.slice(5)) ?? 'a member';
  if (createdBy === 'terminal') return 'the terminal';
  if (createdBy.startsWith('key:')) return 'an API key';
  return createdBy;
}

const kindText: Record<FieldChange['kind'], string> = { added: 'added', removed: 'removed', changed: 'changed' };

/**
 * The entry's stored versions (snapshots of publish, unpublish and restore) with who and when, a
 * field-by-field diff of the one chosen against the current draft, and restore (confirmed), after
 * which `onRestored` gets the entry at its new version.
 */
export function VersionsPanel({ project, path, current, fields, canRestore, canListMembers, onRestored }: {
  project: string;
  /** The entry's admin path, like /pages/<id>. */
  path: string;
  /** The entry as loaded: the draft the versions are compared with. */
  current: Entry;
  fields: readonly EditorField[];
  canRestore: boolean;
  /** Admins and owners may list the members: versions then name them by email. */
  canListMembers: boolean;
  onRestored: (entry: Entry) => void;
}) {
  const versions = useQuery({ queryKey: [project, 'versions', path, current.version], queryFn: () => apiData<VersionView[]>(`${path}/versions`, { project }) });
  // The members, to show an email for `user:<id>` (admins list them; others see "you" or "a member").
  const members = useQuery({ queryKey: [project, 'members'], queryFn: () => apiAll<{ id: string; email: string }>('/members', { project }), retry: false, enabled: canListMembers });
  const me = useQuery({ queryKey: ['me'], queryFn: () => apiData<Me>('/auth/me'), retry: false, staleTime: 60_000 });
  const people = new Map((members.data ?? []).map((m) => [m.id, m.email]));
  if (me.data) people.set(me.data.user.id, `you (${me.data.user.email})`);
  // The row chosen: publish and unpublish each store the version they find, so one number can
  // be listed twice (the same content); the row, not the number, is marked.
  const [chosenRow, setChosenRow] = useState<number | null>(null);
  const chosen = chosenRow === null ? null : versions.data?.[chosenRow]?.version ?? null;
  const detail = useQuery({
    queryKey: [project, 'version', path, chosen],
    queryFn: () => apiData<VersionDetail>(`${path}/versions/${chosen}`, { project }),
    enabled: chosen !== null,
  });
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const restore = async () => {
    if (chosen === null) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ data: Entry }>(`${path}/versions/${chosen}/restore`, { method: 'POST', project, body: {} });
      setConfirming(false);
      setChosenRow(null);
      onRestored(answer.data);
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message} (${e.code})` : 'The server could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  const label = (name: string) => fields.find((f) => f.name === name)?.label ?? name;
  const draft: Fields = { name: current.name, slug: current.slug, ...(isRecord(current.draftContent) ? current.draftContent : {}) };
  const changes = detail.data
    ? diffFields(draft, { name: detail.data.name, slug: detail.data.slug, ...detail.data.draftContent }, ['name', 'slug', ...fields.map((f) => f.name)])
    : [];
  const seoChanges = detail.data?.seo && isRecord(current.seo) ? diffFields(current.seo, detail.data.seo) : [];
  const localeChanges = detail.data?.draftLocales
    ? Object.entries({ ...(isRecord(current.draftLocales) ? current.draftLocales : {}), ...detail.data.draftLocales })
      .map(([code]) => {
        const now = isRecord(current.draftLocales) && isRecord(current.draftLocales[code]) ? current.draftLocales[code] : {};
        return { code, changes: diffFields(now, detail.data?.draftLocales?.[code] ?? {}, fields.map((f) => f.name)) };
      }).filter((l) => l.changes.length > 0)
    : [];
  const nothing = changes.length + seoChanges.length + localeChanges.length === 0;

  const changeList = (list: FieldChange[], prefix: string) => (
    <ul className="diff-list">
      {list.map((c) => (
        <li key={prefix + c.field}>
          <h4>{label(c.field)} <span className={`diff-kind ${c.kind}`}>{kindText[c.kind]}</span></h4>
          <TextDiff before={c.before} after={c.after} label={`${label(c.field)}: the current draft to version ${chosen}`} />
        </li>
      ))}
    </ul>
  );

  return (
    <section className="versions-panel card" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <p className="muted small">A version is stored at each publish, unpublish and restore.</p>
      {versions.isPending && <Loading label="Loading the versions…" />}
      {versions.error && <ErrorState error={versions.error} retry={() => void versions.refetch()} />}
      {versions.data && versions.data.length === 0 && <p>No versions yet: the first is stored when the entry is published.</p>}
      {versions.data && versions.data.length > 0 && (
        <ul className="version-list">
          {versions.data.map((v, i) => (
            <li key={`${v.version}-${i}`}>
              <button type="button" className={`version-item${chosenRow === i ? ' chosen' : ''}`} aria-pressed={chosenRow === i}
                onClick={() => { setChosenRow(i); setConfirming(false); setError(null); }}>
                <span>Version {v.version} <span className={`badge ${v.status}`}>{v.status}</span></span>
                <span className="muted small">
                  <time dateTime={v.createdAt}>{new Date(v.createdAt).toLocaleString()}</time> by {who(v.createdBy, people)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen !== null && (
        <div className="version-detail" aria-live="polite">
          <h3>Version {chosen} compared with the current draft</h3>
          <p className="muted small">Struck through: in the current draft only; marked: what version {chosen} has.</p>
          {detail.isPending && <Loading label="Loading the version…" />}
          {detail.error && <ErrorState error={detail.error} retry={() => void detail.refetch()} />}
          {detail.data && nothing && <p>This version has the same values as the current draft.</p>}
          {detail.data && changes.length > 0 && changeList(changes, 'f:')}
          {seoChanges.length > 0 && <><h4>SEO</h4>{changeList(seoChanges, 'seo:')}</>}
          {localeChanges.map((l) => <div key={l.code}><h4>In {l.code}</h4>{changeList(l.changes, `${l.code}:`)}</div>)}
          {canRestore && detail.data && !confirming && (
            <button type="button" onClick={() => setConfirming(true)}>Restore version {chosen}…</button>
          )}
          {confirming && (
            <div className="confirm" role="group" aria-label="Confirm the restore">
              <p>Restore version {chosen}? The draft becomes this version (as a new version); what is published stays until the next publish.</p>
              <button type="button" className="primary" disabled={busy} onClick={() => void restore()}>Restore</button>{' '}
              <button type="button" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>
            </div>
          )}
          {error && <p className="error" role="alert">{error}</p>}
        </div>
      )}
    </section>
  );
}
