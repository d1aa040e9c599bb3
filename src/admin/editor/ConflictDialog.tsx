import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, apiData, type Entry } from '../api';
import { ErrorState, Loading } from '../ui';
import { Dialog } from './Dialog';
import { ValueBox } from './DiffView';
import { diffFields, localeDocument, mergeFields, type Fields, type Side } from './fieldDiff';

export interface EditorField { name: string; label?: string | undefined; localized?: boolean | undefined }

/**
 * "Someone else saved this entry meanwhile" (a save answered 409 VERSION_CONFLICT): theirs (the
 * draft on the server now) beside mine (what was typed), field by field, and the three ways out
 * of docs/admin.md's resolve-conflict: keep mine, take theirs, or merge field by field. Closing
 * (Escape, ×, "Back to my edits") keeps what was typed; `onResolved` gets the entry at its new
 * version, for the editor to reload.
 */
export function ConflictDialog({ project, path, baseVersion, mine, fields, locale, defaultLocale, onResolved, onClose }: {
  project: string;
  /** The entry's admin path, like /pages/<id>. */
  path: string;
  /** The version the edit started from. */
  baseVersion: number;
  /** The fields as typed (in `locale`: the localized ones of that locale and the shared ones). */
  mine: Fields;
  /** The type's fields, in order, for labels and for which are localized. */
  fields: readonly EditorField[];
  /** The locale written in; absent in a one-locale project. */
  locale?: string | undefined;
  defaultLocale?: string | undefined;
  onResolved: (entry: Entry) => void;
  onClose: () => void;
}) {
  const current = useQuery({ queryKey: [project, 'conflict', path], queryFn: () => apiData<Entry>(path, { project }), staleTime: 0, gcTime: 0 });
  const [choice, setChoice] = useState<Record<string, Side>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const localized = new Set(fields.filter((f) => f.localized).map((f) => f.name));
  const theirs: Fields = current.data
    ? localeDocument(current.data, locale ?? defaultLocale ?? '', defaultLocale ?? locale ?? '', localized)
    : {};
  const changes = current.data ? diffFields(theirs, mine, fields.map((f) => f.name)) : [];
  const label = (name: string) => fields.find((f) => f.name === name)?.label ?? name;

  const resolve = async (strategy: 'mine' | 'theirs' | 'merge') => {
    setBusy(true);
    setError(null);
    try {
      // The field-by-field choice is a document the editor composed: sent as `mine` (laid over the
      // current draft key by key, a field neither side keeps cleared with null), as the server's
      // `merge` is a three-way merge against the base version and would keep their value of a
      // field chosen from mine that mine left as it was.
      const body = {
        baseVersion,
        strategy: strategy === 'merge' ? 'mine' : strategy,
        ...(strategy === 'mine' ? { fields: mine } : strategy === 'merge' ? { fields: mergeFields(mine, theirs, choice) } : {}),
        ...(locale ? { locale } : {}),
      };
      const answer = await api<{ data: Entry }>(`${path}/resolve-conflict`, { method: 'POST', project, body });
      onResolved(answer.data);
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message} (${e.code})` : 'The server could not be reached; your edits are kept.');
      setBusy(false);
    }
  };

  return (
    <Dialog title="Someone else saved this entry meanwhile" onClose={onClose} wide>
      <p>
        Your edits started from version {baseVersion}
        {current.data?.version !== undefined && <>; the entry is now at version {current.data.version}</>}.
        Nothing you typed is lost: choose what to keep.
      </p>
      {current.isPending && <Loading label="Loading their version…" />}
      {current.error && <ErrorState error={current.error} retry={() => void current.refetch()} />}
      {current.data && (changes.length === 0
        ? <p className="notice">Their version has the same field values as yours.</p>
        : (
          <ol className="conflict-fields">
            {changes.map((c) => (
              <li key={c.field} className="conflict-field">
                <fieldset>
                  <legend>{label(c.field)}{localized.has(c.field) && locale ? <span className="muted"> ({locale})</span> : null}</legend>
                  <div className="sides">
                    <div className={`side${(choice[c.field] ?? 'mine') === 'theirs' ? ' chosen' : ''}`}>
                      <label>
                        <input type="radio" name={`side-${c.field}`} value="theirs" checked={choice[c.field] === 'theirs'}
                          onChange={() => setChoice({ ...choice, [c.field]: 'theirs' })} />
                        {' '}Theirs <span className="muted">(saved on the server)</span>
                      </label>
                      <ValueBox value={c.before} label={`${label(c.field)}: theirs`} />
                    </div>
                    <div className={`side${(choice[c.field] ?? 'mine') === 'mine' ? ' chosen' : ''}`}>
                      <label>
                        <input type="radio" name={`side-${c.field}`} value="mine" checked={(choice[c.field] ?? 'mine') === 'mine'}
                          onChange={() => setChoice({ ...choice, [c.field]: 'mine' })} />
                        {' '}Mine <span className="muted">(what you typed)</span>
                      </label>
                      <ValueBox value={c.after} label={`${label(c.field)}: mine`} />
                    </div>
                  </div>
                </fieldset>
              </li>
            ))}
          </ol>
        ))}
      {error && <p className="error" role="alert">{error}</p>}
      <div className="dialog-actions">
        <button type="button" className="primary" disabled={busy || !current.data} onClick={() => void resolve('merge')} data-autofocus>
          Save the merge
        </button>
        <button type="button" disabled={busy || !current.data} onClick={() => void resolve('mine')}>Keep mine</button>
        <button type="button" disabled={busy || !current.data} onClick={() => void resolve('theirs')}>Take theirs</button>
        <button type="button" disabled={busy} onClick={onClose}>Back to my edits</button>
      </div>
      <p className="muted small">
        Save the merge keeps, for each field above, the side chosen (mine unless you pick theirs); Keep mine writes
        all your fields over theirs; Take theirs drops your edits and keeps the saved version.
      </p>
    </Dialog>
  );
}
