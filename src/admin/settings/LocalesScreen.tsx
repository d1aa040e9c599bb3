import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, apiData, atLeast } from '../api';
import { useLocales } from '../editor/LocaleSwitcher';
import type { Locale } from '../editor/fieldDiff';
import { EmptyState, ErrorState, Loading } from '../ui';
import type { SettingsProps } from './SettingsScreen';
import { Clip, ConfirmButton, Head, messageOf } from './team-ui';
import './locales.css';

// The project's locales (issue 13; docs/localization.md): every member reads the list, admins and
// owners add, edit, remove and choose the default. The list shares its query with the entry
// editor's locale switcher ([project, 'locales']), so a change here reaches the editor at once.

/** The API's refusals of one field (`details: [{ path, message }]`). */
function fieldErrors(error: unknown): (name: string) => string {
  const details = error instanceof ApiError && Array.isArray(error.details) ? error.details as Array<{ path?: unknown; message?: unknown }> : []; // cast: the API's details list
  return (name) => details.filter((d) => (typeof d.path === 'string' ? d.path === name : Array.isArray(d.path) && d.path[0] === name))
    .map((d) => String(d.message)).join('; ');
}

export function LocalesScreen({ project, role }: SettingsProps) {
  const queryClient = useQueryClient();
  const locales = useLocales(project);
  const canManage = atLeast(role, 'admin');
  /** The new list answered by the API, then every query of the project read again: entries change too (a new default swaps values, a removed locale's values go). */
  const changed = (list: Locale[]) => {
    queryClient.setQueryData([project, 'locales'], list);
    void queryClient.invalidateQueries({ queryKey: [project] });
  };

  return (
    <section className="team locales" aria-labelledby="locales-title">
      <Head title="Locales" id="locales-title">
        The languages content is written in. Reads without <code>?locale=</code> answer in the default locale; a locale without
        its own value of a field answers its fallback&apos;s, then the default&apos;s.
      </Head>
      {!canManage && (
        <p className="card loc-readonly" role="note">
          You are {/^[aeiou]/.test(role) ? 'an' : 'a'} {role} of this project: you can see the locales, and admins and owners manage them.
        </p>
      )}
      {canManage && locales.isSuccess && <AddLocale project={project} locales={locales.data} onAdded={changed} />}
      <div className="card">
        <h2 id="locales-list">Locales, in order</h2>
        {locales.isPending ? <Loading label="Loading the locales…" />
          : locales.isError ? <ErrorState error={locales.error} retry={() => void locales.refetch()} />
            : locales.data.length === 0 ? <EmptyState title="No locales">This project has no locales yet.</EmptyState>
              : (
                <ul className="team-list" aria-labelledby="locales-list">
                  {locales.data.map((l) => <LocaleRow key={l.code} project={project} locale={l} locales={locales.data} canManage={canManage} onChanged={changed} />)}
                </ul>
              )}
      </div>
    </section>
  );
}

function AddLocale({ project, locales, onAdded }: { project: string; locales: Locale[]; onAdded: (list: Locale[]) => void }) {
  const ids = useId();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [fallback, setFallback] = useState('');
  const add = useMutation({
    mutationFn: () => apiData<Locale[]>('/locales', {
      method: 'POST', project,
      body: { code: code.trim(), ...(name.trim() ? { name: name.trim() } : {}), ...(fallback ? { fallback } : {}) },
    }),
    onSuccess: (list) => { setCode(''); setName(''); setFallback(''); onAdded(list); },
  });
  const at = fieldErrors(add.error);
  const codeError = at('code') || (add.error instanceof ApiError && add.error.code === 'CONFLICT' ? add.error.message : '');
  const fallbackError = at('fallback');
  const general = add.isError && !codeError && !fallbackError ? messageOf(add.error) : '';
  const submit = (e: FormEvent) => { e.preventDefault(); add.mutate(); };
  return (
    <form className="card loc-add" onSubmit={submit} noValidate aria-labelledby={`${ids}-t`}>
      <h2 id={`${ids}-t`}>Add a locale</h2>
      <div className="row">
        <div className="field narrow">
          <label htmlFor={`${ids}-code`}>Code</label>
          <input id={`${ids}-code`} type="text" required maxLength={35} value={code} spellCheck={false} autoComplete="off"
            onChange={(e) => setCode(e.target.value)} placeholder="e.g. fr, pt-BR"
            aria-invalid={codeError ? true : undefined} aria-describedby={`${ids}-code-hint${codeError ? ` ${ids}-code-err` : ''}`} />
          <p id={`${ids}-code-hint`} className="hint">A language, and optionally a region: <code>fr</code>, <code>pt-BR</code>.</p>
          {codeError && <p id={`${ids}-code-err`} className="refusal" role="alert">{codeError}</p>}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-name`}>Name (optional)</label>
          <input id={`${ids}-name`} type="text" maxLength={255} value={name} onChange={(e) => setName(e.target.value)}
            aria-describedby={`${ids}-name-hint`} />
          <p id={`${ids}-name-hint`} className="hint">Left empty: the language&apos;s English name (French for <code>fr</code>).</p>
        </div>
        <div className="field narrow">
          <label htmlFor={`${ids}-fb`}>Fallback (optional)</label>
          <select id={`${ids}-fb`} value={fallback} onChange={(e) => setFallback(e.target.value)}
            aria-invalid={fallbackError ? true : undefined} aria-describedby={fallbackError ? `${ids}-fb-err` : undefined}>
            <option value="">None (the default)</option>
            {locales.map((l) => <option key={l.code} value={l.code}>{l.name} ({l.code})</option>)}
          </select>
          {fallbackError && <p id={`${ids}-fb-err`} className="refusal" role="alert">{fallbackError}</p>}
        </div>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={add.isPending}>{add.isPending ? 'Adding…' : 'Add locale'}</button>
      </div>
      {general && <p className="refusal" role="alert">{general}</p>}
    </form>
  );
}

function LocaleRow({ project, locale, locales, canManage, onChanged }: {
  project: string; locale: Locale; locales: Locale[]; canManage: boolean; onChanged: (list: Locale[]) => void;
}) {
  const errId = useId();
  const [editing, setEditing] = useState(false);
  const path = `/locales/${encodeURIComponent(locale.code)}`;
  const remove = useMutation({
    mutationFn: () => apiData<Locale[]>(path, { method: 'DELETE', project, body: {} }),
    onSuccess: onChanged,
  });
  const makeDefault = useMutation({
    mutationFn: () => apiData<Locale[]>(`${path}/default`, { method: 'POST', project, body: {} }),
    onSuccess: onChanged,
  });
  const failed = remove.error ?? makeDefault.error;
  const label = `${locale.name} (${locale.code})`;
  const fallbackName = locale.fallback ? locales.find((l) => l.code === locale.fallback)?.name : undefined;
  return (
    <li data-locale={locale.code}>
      <div className="item-head">
        <span className="item-title loc-title"><code className="loc-code">{locale.code}</code> <Clip>{locale.name}</Clip></span>
        {locale.default && <span className="pill active">default</span>}
      </div>
      <dl className="item-facts">
        <div><dt>Fallback</dt><dd>{locale.default ? 'none (the default locale)' : locale.fallback ? `${fallbackName ? `${fallbackName} ` : ''}(${locale.fallback}), then the default` : 'the default locale'}</dd></div>
      </dl>
      {canManage && (editing
        ? <EditLocale project={project} locale={locale} locales={locales} onDone={(list) => { setEditing(false); if (list) onChanged(list); }} />
        : (
          <div className="item-actions">
            <button type="button" aria-label={`Edit ${label}`} onClick={() => setEditing(true)}>Edit</button>
            {!locale.default && (
              <AskButton label="Make default" name={`Make ${label} the default`} confirmLabel={`Make ${locale.code} the default`}
                question={`Make ${label} the default locale? Reads without ?locale= will answer in ${locale.code}, and required fields are checked in it. Every entry's values of the current default and of ${locale.code} swap places: nothing is lost. ${locale.code}'s fallback is cleared.`}
                pending={makeDefault.isPending} onConfirm={() => makeDefault.mutate()} />
            )}
            {locale.default
              ? (
                <>
                  <button type="button" className="danger" disabled aria-label={`Remove ${label}`} aria-describedby={`${errId}-why`}>Remove</button>
                  <span id={`${errId}-why`} className="hint">The default locale cannot be removed: make another locale the default first.</span>
                </>
              )
              : (
                <ConfirmButton label="Remove" name={`Remove ${label}`} confirmLabel={`Remove ${locale.code}`}
                  question={`Remove ${label}? Every value written in ${locale.code}, in every entry, is removed with it; this cannot be undone.`}
                  onConfirm={() => remove.mutate()} pending={remove.isPending} describedBy={failed ? errId : undefined} />
              )}
          </div>
        ))}
      {failed && <p id={errId} className="refusal" role="alert">{messageOf(failed)}</p>}
    </li>
  );
}

/** Like ConfirmButton, for an action that is not destructive but changes much: it asks, with the explanation, a second time. */
function AskButton({ label, name, confirmLabel, question, onConfirm, pending }: {
  label: string; name: string; confirmLabel: string; question: string; onConfirm: () => void; pending: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) confirmRef.current?.focus(); }, [asking]);
  if (!asking) {
    return <button ref={openRef} type="button" aria-label={name} disabled={pending} onClick={() => setAsking(true)}>{pending ? 'Working…' : label}</button>;
  }
  const cancel = () => { setAsking(false); setTimeout(() => openRef.current?.focus(), 0); };
  return (
    <span className="confirm loc-ask" role="group" aria-label={name} onKeyDown={(e) => { if (e.key === 'Escape') cancel(); }}>
      <span className="confirm-q">{question}</span>
      <button ref={confirmRef} type="button" className="primary" onClick={() => { setAsking(false); onConfirm(); }}>{confirmLabel}</button>
      <button type="button" onClick={cancel}>Cancel</button>
    </span>
  );
}

function EditLocale({ project, locale, locales, onDone }: { project: string; locale: Locale; locales: Locale[]; onDone: (list?: Locale[]) => void }) {
  const ids = useId();
  const [name, setName] = useState(locale.name);
  const [fallback, setFallback] = useState(locale.fallback ?? '');
  const save = useMutation({
    mutationFn: () => apiData<Locale[]>(`/locales/${encodeURIComponent(locale.code)}`, {
      method: 'PUT', project,
      body: { ...(name.trim() ? { name: name.trim() } : {}), ...(locale.default ? {} : { fallback: fallback || null }) },
    }),
    onSuccess: (list) => onDone(list),
  });
  const at = fieldErrors(save.error);
  const nameError = at('name');
  const fallbackError = at('fallback');
  const general = save.isError && !nameError && !fallbackError ? messageOf(save.error) : '';
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(); };
  return (
    <form className="loc-edit" onSubmit={submit} noValidate aria-label={`Edit ${locale.name} (${locale.code})`}
      onKeyDown={(e) => { if (e.key === 'Escape') onDone(); }}>
      <div className="row">
        <div className="field">
          <label htmlFor={`${ids}-name`}>Name</label>
          <input id={`${ids}-name`} type="text" maxLength={255} value={name} onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined} aria-describedby={nameError ? `${ids}-name-err` : undefined} />
          {nameError && <p id={`${ids}-name-err`} className="refusal" role="alert">{nameError}</p>}
        </div>
        {!locale.default && (
          <div className="field narrow">
            <label htmlFor={`${ids}-fb`}>Fallback</label>
            <select id={`${ids}-fb`} value={fallback} onChange={(e) => setFallback(e.target.value)}
              aria-invalid={fallbackError ? true : undefined} aria-describedby={fallbackError ? `${ids}-fb-err` : undefined}>
              <option value="">None (the default)</option>
              {locales.filter((l) => l.code !== locale.code).map((l) => <option key={l.code} value={l.code}>{l.name} ({l.code})</option>)}
            </select>
            {fallbackError && <p id={`${ids}-fb-err`} className="refusal" role="alert">{fallbackError}</p>}
          </div>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save'}</button>
        <button type="button" onClick={() => onDone()}>Cancel</button>
      </div>
      {general && <p className="refusal" role="alert">{general}</p>}
    </form>
  );
}
