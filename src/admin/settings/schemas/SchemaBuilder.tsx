import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { checkSchemaSet, fieldTypes, referenceTypes, validateTypeDefinition, type FieldType, type SchemaSet, type TypeDefinition } from '../../../core/schema/index.js';
import { schemaFileText } from '../../../lib/schema-file.js';
import { api, ApiError, apiAll, apiData } from '../../api';
import { navigate } from '../../router';
import { EmptyState, ErrorState, Link, Loading } from '../../ui';
import type { SettingsProps } from '../SettingsScreen';
import {
  defaultIsText, fromDefinition, kindBySeg, kinds, move, newField, numberOptions, optionLabels, toDefinition,
  type Draft, type FieldDraft, type Kind, type LocalIssue, type StoredType,
} from './model';
import './schemas.css';

// The schema builder: page types, collections and components listed, created, edited and deleted
// through the admin API, with the server's own schema rules (src/core/schema) run as you type.

interface Issue { path: string; message: string }

const base = (project: string) => `/p/${encodeURIComponent(project)}/settings/schemas`;

export function SchemaBuilder({ project, rest }: SettingsProps) {
  const kind = kindBySeg(rest[1]);
  if (rest[0] === 'new' && kindBySeg(rest[1])) return <TypeEditor key={`new-${rest[1]}`} project={project} kind={kindBySeg(rest[1])!} slug={null} />;
  const editKind = kindBySeg(rest[0]);
  if (editKind && rest[1]) return <TypeEditor key={`${rest[0]}/${rest[1]}`} project={project} kind={editKind} slug={decodeURIComponent(rest[1])} />;
  if (rest.length > 0 && !kind) return <EmptyState title="Not found">There is no such schema page.</EmptyState>;
  return <TypeList project={project} />;
}

function useAllTypes(project: string) {
  const results = useQueries({
    queries: kinds.map((k) => ({ queryKey: [project, k.seg === 'collections' ? 'collection-types' : k.seg], queryFn: () => apiAll<StoredType>(k.api, { project }) })),
  });
  const pending = results.some((r) => r.isPending);
  const error = results.find((r) => r.error)?.error;
  const byKind = Object.fromEntries(kinds.map((k, i) => [k.key, results[i]?.data ?? []])) as Record<Kind['key'], StoredType[]>;
  return { pending, error, byKind, refetch: () => results.forEach((r) => void r.refetch()) };
}

function SchemasNotice() {
  return (
    <p className="notice sb-notice">
      For projects that keep their schemas as code, the files in <code>schemas/</code> are the source of truth:{' '}
      <code>cms schema push</code> makes the database match them, so a change made here is undone by the next push
      unless the file changes too. Download a type’s JSON file (the same file <code>cms schema pull</code> writes) into{' '}
      <code>schemas/&lt;kind&gt;/</code>, or run <code>cms schema pull</code>.
    </p>
  );
}

/** A link that downloads a type as its schemas/ file, built in the browser (a Blob URL). */
function DownloadLink({ type, kind }: { type: StoredType; kind: Kind }) {
  const text = useMemo(() => schemaFileText({ slug: type.slug, name: type.name, fields: type.fields }), [type]);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const u = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [text]);
  return (
    <a className="sb-download" href={url ?? '#'} download={`${type.slug}.json`} aria-label={`Download ${kind.one} ${type.slug} as ${kind.seg}/${type.slug}.json`}>
      Download JSON
    </a>
  );
}

// ---------------------------------------------------------------------------------------------
// The list of types, by kind, with deletion.

function TypeList({ project }: { project: string }) {
  const { pending, error, byKind, refetch } = useAllTypes(project);
  return (
    <section aria-labelledby="sb-title" className="sb">
      <div className="screen-head"><h1 id="sb-title">Schemas</h1></div>
      <SchemasNotice />
      {pending ? <Loading label="Loading the schemas…" /> : error ? <ErrorState error={error} retry={refetch} /> : kinds.map((k) => (
        <section key={k.key} aria-labelledby={`sb-kind-${k.seg}`} className="sb-kind">
          <div className="sb-kind-head">
            <h2 id={`sb-kind-${k.seg}`}>{k.label}</h2>
            <Link to={`${base(project)}/new/${k.seg}`} className="sb-button">New {k.one}</Link>
          </div>
          {byKind[k.key].length === 0 ? <p className="muted">No {k.label.toLowerCase()} yet.</p> : (
            <ul className="sb-types">
              {byKind[k.key].map((t) => <TypeRow key={t.slug} project={project} kind={k} type={t} />)}
            </ul>
          )}
        </section>
      ))}
    </section>
  );
}

function TypeRow({ project, kind, type }: { project: string; kind: Kind; type: StoredType }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: (force: boolean) => api(`${kind.api}/${encodeURIComponent(type.slug)}${force ? '?force=true' : ''}`, { method: 'DELETE', body: {}, project }), // a JSON body satisfies the CSRF rule
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [project] }),
  });
  const refusal = del.error instanceof ApiError && del.error.code === 'HAS_REFERENCES' ? del.error : null;
  const details = refusal && typeof refusal.details === 'object' && refusal.details !== null ? (refusal.details as { entries?: unknown }) : {};
  const entries = typeof details.entries === 'number' ? details.entries : null;
  const titleId = useId();
  return (
    <li className="sb-type">
      <div className="sb-type-main">
        <Link to={`${base(project)}/${kind.seg}/${encodeURIComponent(type.slug)}`} className="sb-type-name"><span className="clip" title={type.name}>{type.name}</span></Link>
        <span className="muted clip" title={type.slug}>{type.slug} · {type.fields.length} field{type.fields.length === 1 ? '' : 's'}</span>
      </div>
      <div className="sb-type-actions">
        <DownloadLink type={type} kind={kind} />
        <button type="button" className="danger" onClick={() => { del.reset(); setConfirming(true); }} aria-label={`Delete ${kind.one} ${type.slug}`}>Delete</button>
      </div>
      {confirming && (
        <div className="sb-confirm" role="group" aria-labelledby={titleId}>
          <p id={titleId}>Delete the {kind.one} <strong>{type.name}</strong> ({type.slug})?</p>
          {refusal ? (
            <div role="alert">
              <p className="error">
                {entries !== null
                  ? `Refused: ${type.name} has ${entries} ${entries === 1 ? 'entry' : 'entries'}. Deleting it anyway deletes ${entries === 1 ? 'it' : 'them'} too.`
                  : `Refused: ${refusal.message}. Deleting it anyway leaves those fields naming a component that no longer exists: those types cannot be saved until the fields change.`}
              </p>
              <p className="muted">The server said: {refusal.message}</p>
            </div>
          ) : del.error ? <p className="error" role="alert">{del.error instanceof ApiError ? del.error.message : 'The server could not be reached.'}</p> : null}
          <div className="sb-row">
            {refusal
              ? <button type="button" className="danger" disabled={del.isPending} onClick={() => del.mutate(true)}>{entries !== null ? `Delete with its ${entries} ${entries === 1 ? 'entry' : 'entries'}` : 'Delete anyway'}</button>
              : <button type="button" className="danger" disabled={del.isPending} onClick={() => del.mutate(false)}>Delete {kind.one}</button>}
            <button type="button" onClick={() => { setConfirming(false); del.reset(); }}>Cancel</button>
          </div>
        </div>
      )}
    </li>
  );
}

// ---------------------------------------------------------------------------------------------
// Creating and editing one type.

const emptyDraft: Draft = { slug: '', name: '', fields: [] };

function TypeEditor({ project, kind, slug }: { project: string; kind: Kind; slug: string | null }) {
  const all = useAllTypes(project);
  const stored = useQuery({
    queryKey: [project, kind.seg, 'one', slug],
    queryFn: () => apiData<StoredType>(`${kind.api}/${encodeURIComponent(slug ?? '')}`, { project }),
    enabled: slug !== null,
  });
  if (slug !== null && stored.isPending) return <Loading label="Loading the type…" />;
  if (slug !== null && stored.error) {
    if (stored.error instanceof ApiError && stored.error.status === 404) return <EmptyState title="Not found">There is no {kind.one} “{slug}”.</EmptyState>;
    return <ErrorState error={stored.error} retry={() => void stored.refetch()} />;
  }
  if (all.pending) return <Loading label="Loading the schemas…" />;
  if (all.error) return <ErrorState error={all.error} retry={all.refetch} />;
  return <TypeForm project={project} kind={kind} stored={slug === null ? null : stored.data ?? null} set={all.byKind} />;
}

function TypeForm({ project, kind, stored, set }: { project: string; kind: Kind; stored: StoredType | null; set: Record<Kind['key'], StoredType[]> }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => (stored ? fromDefinition(stored) : emptyDraft));
  const [dirty, setDirty] = useState(false);
  const [serverIssues, setServerIssues] = useState<Issue[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const [newType, setNewType] = useState<FieldType>('text');
  const [saved, setSaved] = useState(false);
  const addTypeId = useId();

  const update = (next: Draft) => { setDraft(next); setDirty(true); setServerIssues([]); setSaved(false); };

  const { definition, local } = useMemo(() => toDefinition(draft), [draft]);
  const liveIssues = useMemo<Issue[]>(() => {
    const result = validateTypeDefinition(definition);
    if (!result.ok) return [...local, ...result.issues];
    const whole: SchemaSet = {
      pageTypes: set.pageTypes as unknown as TypeDefinition[], // cast: stored definitions passed the same validation
      collections: set.collections as unknown as TypeDefinition[],
      components: set.components as unknown as TypeDefinition[],
    };
    whole[kind.key] = [...whole[kind.key].filter((d) => d.slug !== (stored?.slug ?? result.value.slug)), result.value];
    return [...local, ...checkSchemaSet(whole).filter((i) => i.kind === kind.key && i.slug === result.value.slug)];
  }, [definition, local, set, kind.key, stored]);

  const save = useMutation({
    mutationFn: () => stored
      ? apiData<StoredType>(`${kind.api}/${encodeURIComponent(stored.slug)}`, { method: 'PUT', body: definition, project })
      : apiData<StoredType>(kind.api, { method: 'POST', body: definition, project }),
    onSuccess: async (row) => {
      setDirty(false);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: [project] });
      if (!stored || stored.slug !== row.slug) navigate(`${base(project)}/${kind.seg}/${encodeURIComponent(row.slug)}`, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
        setServerIssues(error.details.filter((d): d is Issue => typeof d === 'object' && d !== null && typeof d.path === 'string' && typeof d.message === 'string'));
      }
    },
  });

  // Problems are shown once the form has been touched (a new type starts empty, not wrong), and the
  // server's, from the last save, until the next change.
  const shown = dedupe([...(dirty || stored ? liveIssues : []), ...serverIssues]);
  const issuesAt = (path: string) => shown.filter((i) => i.path === path || i.path.startsWith(path + '.') || i.path.startsWith(path + '['));
  const otherError = save.error && !(save.error instanceof ApiError && save.error.code === 'VALIDATION_FAILED')
    ? (save.error instanceof ApiError ? `${save.error.message} (${save.error.code})` : 'The server could not be reached.') : null;
  const title = stored ? `Edit ${kind.one}: ${stored.name}` : `New ${kind.one}`;

  return (
    <section aria-labelledby="sb-title" className="sb">
      <p className="sb-back"><Link to={base(project)}>← All schemas</Link></p>
      <div className="screen-head sb-head">
        <h1 id="sb-title" className="clip" title={title}>{title}</h1>
        {stored && <DownloadLink type={stored} kind={kind} />}
      </div>
      <SchemasNotice />
      <form className="sb-form" noValidate onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
        <div className="sb-grid">
          <TextInput label="Name" value={draft.name} onChange={(name) => update({ ...draft, name })} issues={issuesAt('name')} />
          <TextInput label="Slug" value={draft.slug} onChange={(s) => update({ ...draft, slug: s })} issues={issuesAt('slug')} hint="Lowercase letters, digits and hyphens, like landing-page." />
        </div>
        <h2>Fields</h2>
        <FieldList
          fields={draft.fields} path="fields" set={set} issuesAt={issuesAt} inRepeater={false} localizable={kind.key !== 'components'}
          onChange={(fields) => update({ ...draft, fields })} announce={setAnnouncement}
        />
        <div className="sb-row sb-add">
          <label htmlFor={addTypeId}>New field’s type</label>
          <select id={addTypeId} value={newType} onChange={(e) => setNewType(e.target.value as FieldType)}>
            {fieldTypes.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
          <button type="button" onClick={() => update({ ...draft, fields: [...draft.fields, newField(newType)] })}>Add field</button>
        </div>
        {shown.length > 0 && (
          <div className="sb-summary" role="status">
            <p><strong>{shown.length} problem{shown.length === 1 ? '' : 's'}</strong> {serverIssues.length ? '(the server refused the save: VALIDATION_FAILED)' : '(checked as you type, as the server will)'}:</p>
            <ul>{shown.map((i) => <li key={`${i.path}|${i.message}`}><code>{i.path || '(type)'}</code>: {i.message}</li>)}</ul>
          </div>
        )}
        {otherError && <p className="error" role="alert">{otherError}</p>}
        {saved && !dirty && <p className="sb-saved" role="status">Saved.</p>}
        <div className="sb-row">
          <button type="submit" className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : stored ? 'Save changes' : `Create ${kind.one}`}</button>
          <Link to={base(project)} className="sb-button">Cancel</Link>
        </div>
      </form>
      <div className="visually-hidden" aria-live="polite" role="status">{announcement}</div>
    </section>
  );
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => { const k = `${i.path}|${i.message}`; if (seen.has(k)) return false; seen.add(k); return true; });
}

// ---------------------------------------------------------------------------------------------
// Fields: a reorderable list (drag, the move buttons, or arrow keys on the handle) of field editors.

interface ListProps {
  fields: FieldDraft[]; path: string; set: Record<Kind['key'], StoredType[]>; inRepeater: boolean;
  /** Whether these fields may be localized: only a page type's or collection's own fields. */
  localizable: boolean;
  issuesAt(path: string): Issue[]; onChange(fields: FieldDraft[]): void; announce(text: string): void;
}

function FieldList({ fields, path, set, issuesAt, inRepeater, localizable, onChange, announce }: ListProps) {
  const dragFrom = useRef<number | null>(null);
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    if (focusAfter.current) { document.getElementById(focusAfter.current)?.focus(); focusAfter.current = null; }
  });
  const moveField = (from: number, to: number, focusId?: string) => {
    if (to < 0 || to >= fields.length || from === to) return;
    const f = fields[from]!;
    onChange(move(fields, from, to));
    if (focusId) focusAfter.current = focusId;
    announce(`Moved field ${f.name || '(unnamed)'} to position ${to + 1} of ${fields.length}.`);
  };
  if (fields.length === 0) return <p className="muted sb-nofields">No fields yet. Choose a type and add one.</p>;
  return (
    <ol className="sb-fields">
      {fields.map((f, i) => (
        <li
          key={f.key}
          className="sb-field"
          onDragOver={(e: DragEvent) => { if (dragFrom.current !== null) e.preventDefault(); }}
          onDrop={(e: DragEvent) => { e.preventDefault(); if (dragFrom.current !== null) moveField(dragFrom.current, i); dragFrom.current = null; }}
        >
          <FieldEditor
            field={f} index={i} count={fields.length} path={`${path}[${i}]`} set={set} issuesAt={issuesAt} inRepeater={inRepeater} localizable={localizable} announce={announce}
            onChange={(next) => onChange(fields.map((x) => (x.key === f.key ? next : x)))}
            onRemove={() => { onChange(fields.filter((x) => x.key !== f.key)); announce(`Removed field ${f.name || '(unnamed)'}.`); }}
            onMove={(to, focusId) => moveField(i, to, focusId)}
            onDragStart={(e) => { dragFrom.current = i; e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', f.name); }}
          />
        </li>
      ))}
    </ol>
  );
}

interface FieldProps {
  field: FieldDraft; index: number; count: number; path: string; set: Record<Kind['key'], StoredType[]>; inRepeater: boolean;
  localizable: boolean;
  issuesAt(path: string): Issue[]; announce(text: string): void;
  onChange(field: FieldDraft): void; onRemove(): void; onMove(to: number, focusId: string): void; onDragStart(e: DragEvent): void;
}

const notInRepeater: readonly FieldType[] = ['componentPicker', 'nestedComponent', 'repeater'];

function FieldEditor({ field: f, index, count, path, set, inRepeater, localizable, issuesAt, announce, onChange, onRemove, onMove, onDragStart }: FieldProps) {
  const legendId = useId();
  const handleId = `sb-handle-${f.key}`;
  const upId = `sb-up-${f.key}`;
  const downId = `sb-down-${f.key}`;
  const opt = (k: string) => f.opts[k] ?? '';
  const setOpt = (k: string, v: string) => onChange({ ...f, opts: { ...f.opts, [k]: v } });
  const at = (sub: string) => issuesAt(`${path}.${sub}`);
  const display = f.name || '(unnamed)';
  const onHandleKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'ArrowUp' && index > 0) { e.preventDefault(); onMove(index - 1, handleId); }
    if (e.key === 'ArrowDown' && index < count - 1) { e.preventDefault(); onMove(index + 1, handleId); }
  };
  // Problems of this field that no control below shows (an unknown option, say).
  const placed = ['name', 'label', 'type', 'required', 'defaultValue', 'localized', 'requiredInAllLocales', 'options.fields',
    ...['placeholder', 'helpText', 'pattern', 'patternMessage', 'allowedMimeTypes', 'choices', 'referenceType', 'collectionType', 'pageType',
      'multiple', 'allowedComponents', 'componentSlug', ...(numberOptions[f.type] ?? [])].map((k) => `options.${k}`)];
  const own = issuesAt(path).filter((i) => !placed.some((p) => i.path === `${path}.${p}` || i.path.startsWith(`${path}.${p}.`) || i.path.startsWith(`${path}.${p}[`)));
  const types = inRepeater ? fieldTypes.filter((t) => !notInRepeater.includes(t)) : fieldTypes;
  const hasIssues = issuesAt(path).length > 0;
  return (
    <fieldset className={hasIssues ? 'sb-fieldset invalid' : 'sb-fieldset'} aria-labelledby={legendId}>
      <div className="sb-field-head">
        {/* A focusable span, not a <button>: Chromium starts no drag from a button. */}
        <span
          role="button" tabIndex={0} id={handleId} className="sb-handle" draggable onDragStart={onDragStart} onKeyDown={onHandleKey}
          aria-label={`Reorder field ${display} (position ${index + 1} of ${count}): drag, or use the arrow keys`}
        >
          <span aria-hidden="true">⋮⋮</span>
        </span>
        <span id={legendId} className="sb-legend clip" title={`Field ${index + 1}: ${display} (${f.type})`}>Field {index + 1}: {display} <span className="muted">({f.type})</span></span>
        <div className="sb-field-actions">
          <button type="button" id={upId} disabled={index === 0} onClick={() => onMove(index - 1, index - 1 === 0 ? downId : upId)} aria-label={`Move field ${display} up`}>↑</button>
          <button type="button" id={downId} disabled={index === count - 1} onClick={() => onMove(index + 1, index + 1 === count - 1 ? upId : downId)} aria-label={`Move field ${display} down`}>↓</button>
          <button type="button" className="danger" onClick={onRemove} aria-label={`Remove field ${display}`}>Remove</button>
        </div>
      </div>
      {own.length > 0 && <Errors issues={own} />}
      <div className="sb-grid">
        <TextInput label="Name" value={f.name} onChange={(name) => onChange({ ...f, name })} issues={at('name')} hint="Starts with a letter; letters, digits, underscores." />
        <TextInput label="Label" value={f.label} onChange={(label) => onChange({ ...f, label })} issues={at('label')} />
        <SelectInput label="Type" value={f.type} onChange={(t) => onChange({ ...f, type: t as FieldType })} issues={at('type')} options={types.map((t) => [t, t])} />
        <TextInput
          label={defaultIsText(f.type) ? 'Default value' : 'Default value (JSON)'} value={f.defaultValue}
          onChange={(v) => onChange({ ...f, defaultValue: v })} issues={at('defaultValue')}
        />
        <TextInput label="Placeholder" value={opt('placeholder')} onChange={(v) => setOpt('placeholder', v)} issues={at('options.placeholder')} />
        <TextInput label="Help text" value={opt('helpText')} onChange={(v) => setOpt('helpText', v)} issues={at('options.helpText')} />
        {(numberOptions[f.type] ?? []).map((k) => (
          <TextInput key={k} label={optionLabels[k] ?? k} value={opt(k)} onChange={(v) => setOpt(k, v)} issues={at(`options.${k}`)} numeric />
        ))}
        {(f.type === 'text' || f.type === 'textarea') && <>
          <TextInput label={optionLabels.pattern!} value={opt('pattern')} onChange={(v) => setOpt('pattern', v)} issues={at('options.pattern')} />
          <TextInput label={optionLabels.patternMessage!} value={opt('patternMessage')} onChange={(v) => setOpt('patternMessage', v)} issues={at('options.patternMessage')} hint="Shown when a value does not match." />
        </>}
        {(f.type === 'image' || f.type === 'media') && (
          <TextInput label={optionLabels.allowedMimeTypes!} value={opt('allowedMimeTypes')} onChange={(v) => setOpt('allowedMimeTypes', v)} issues={at('options.allowedMimeTypes')} hint="Like image/png, image/jpeg." />
        )}
        {f.type === 'reference' && <>
          <SelectInput label={optionLabels.referenceType!} value={opt('referenceType') || 'collectionItem'} onChange={(v) => setOpt('referenceType', v)} issues={at('options.referenceType')}
            options={referenceTypes.map((t) => [t, { collectionItem: 'a collection item', page: 'a page', user: 'a user', blogPost: 'a blog post' }[t]])} />
          {(opt('referenceType') || 'collectionItem') === 'collectionItem' && (
            <SelectInput label={optionLabels.collectionType!} value={opt('collectionType')} onChange={(v) => setOpt('collectionType', v)} issues={at('options.collectionType')}
              options={[['', 'Choose a collection…'], ...set.collections.map((c): [string, string] => [c.slug, `${c.name} (${c.slug})`])]} />
          )}
          {opt('referenceType') === 'page' && (
            <SelectInput label={optionLabels.pageType!} value={opt('pageType')} onChange={(v) => setOpt('pageType', v)} issues={at('options.pageType')}
              options={[['', 'Any page type'], ...set.pageTypes.map((c): [string, string] => [c.slug, `${c.name} (${c.slug})`])]} />
          )}
        </>}
        {f.type === 'nestedComponent' && (
          <SelectInput label={optionLabels.componentSlug!} value={opt('componentSlug')} onChange={(v) => setOpt('componentSlug', v)} issues={at('options.componentSlug')}
            options={[['', 'Choose a component…'], ...set.components.map((c): [string, string] => [c.slug, `${c.name} (${c.slug})`])]} />
        )}
      </div>
      <div className="sb-checks">
        <CheckInput label="Required" checked={f.required} onChange={(required) => onChange({ ...f, required })} issues={at('required')} />
        {f.type === 'reference' && (
          <CheckInput label="Several (a list of references)" checked={f.multiple} onChange={(multiple) => onChange({ ...f, multiple })} issues={at('options.multiple')} />
        )}
        {localizable && <CheckInput label="Localized (a value per locale)" checked={f.localized} onChange={(localized) => onChange({ ...f, localized })} issues={at('localized')} />}
        {localizable && f.localized && f.required && (
          <CheckInput label="Required in every locale" checked={f.requiredInAllLocales} onChange={(v) => onChange({ ...f, requiredInAllLocales: v })} issues={at('requiredInAllLocales')} />
        )}
      </div>
      {f.type === 'select' && <ChoicesEditor field={f} onChange={onChange} issues={at('options.choices')} path={`${path}.options.choices`} />}
      {f.type === 'componentPicker' && (
        <fieldset className="sb-sub">
          <legend>Allowed components (none checked: any component)</legend>
          {set.components.length === 0 ? <p className="muted">No components yet: create one first.</p> : set.components.map((c) => (
            <CheckInput key={c.slug} label={`${c.name} (${c.slug})`} checked={f.allowedComponents.includes(c.slug)} issues={[]}
              onChange={(on) => onChange({ ...f, allowedComponents: on ? [...f.allowedComponents, c.slug] : f.allowedComponents.filter((s) => s !== c.slug) })} />
          ))}
          <Errors issues={at('options.allowedComponents')} />
        </fieldset>
      )}
      {f.type === 'repeater' && (
        <fieldset className="sb-sub">
          <legend>Sub-fields of {display}</legend>
          <Errors issues={issuesAt(`${path}.options.fields`).filter((i) => i.path === `${path}.options.fields`)} />
          <FieldList fields={f.subFields} path={`${path}.options.fields`} set={set} issuesAt={issuesAt} inRepeater localizable={false} announce={announce}
            onChange={(subFields) => onChange({ ...f, subFields })} />
          <button type="button" onClick={() => onChange({ ...f, subFields: [...f.subFields, newField('text')] })} aria-label={`Add a sub-field to ${display}`}>Add sub-field</button>
        </fieldset>
      )}
    </fieldset>
  );
}

function ChoicesEditor({ field: f, onChange, issues, path }: { field: FieldDraft; onChange(f: FieldDraft): void; issues: Issue[]; path: string }) {
  const setChoice = (key: number, part: 'label' | 'value', v: string) => onChange({ ...f, choices: f.choices.map((c) => (c.key === key ? { ...c, [part]: v } : c)) });
  return (
    <fieldset className="sb-sub">
      <legend>Choices</legend>
      <Errors issues={issues.filter((i) => i.path === path)} />
      {f.choices.length === 0 && <p className="muted">No choices: the field takes any text. Add choices to offer a list instead.</p>}
      {f.choices.map((c, i) => (
        <div key={c.key} className="sb-row sb-choice">
          <TextInput label={`Choice ${i + 1} label`} value={c.label} onChange={(v) => setChoice(c.key, 'label', v)} issues={issues.filter((x) => x.path.startsWith(`${path}[${i}].label`))} />
          <TextInput label={`Choice ${i + 1} value`} value={c.value} onChange={(v) => setChoice(c.key, 'value', v)} issues={issues.filter((x) => x.path.startsWith(`${path}[${i}].value`))} />
          <button type="button" onClick={() => onChange({ ...f, choices: f.choices.filter((x) => x.key !== c.key) })} aria-label={`Remove choice ${i + 1}`}>Remove</button>
        </div>
      ))}
      <button type="button" onClick={() => onChange({ ...f, choices: [...f.choices, { key: Date.now() + Math.random(), label: '', value: '' }] })}>Add choice</button>
    </fieldset>
  );
}

// ---------------------------------------------------------------------------------------------
// Inputs with their problems attached (aria-invalid, aria-describedby).

function Errors({ issues, id }: { issues: Array<Issue | LocalIssue>; id?: string }) {
  if (issues.length === 0) return null;
  return <ul className="sb-errors" id={id}>{issues.map((i) => <li key={`${i.path}|${i.message}`}>{i.message}</li>)}</ul>;
}

function TextInput({ label, value, onChange, issues, hint, numeric }: { label: string; value: string; onChange(v: string): void; issues: Issue[]; hint?: string; numeric?: boolean }) {
  const id = useId();
  const describedBy = [issues.length ? `${id}-e` : '', hint ? `${id}-h` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="sb-input">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={value} inputMode={numeric ? 'decimal' : undefined} aria-invalid={issues.length > 0 || undefined} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} />
      {hint && <span className="sb-hint" id={`${id}-h`}>{hint}</span>}
      <Errors issues={issues} id={`${id}-e`} />
    </div>
  );
}

function SelectInput({ label, value, onChange, issues, options }: { label: string; value: string; onChange(v: string): void; issues: Issue[]; options: Array<[string, ReactNode]> }) {
  const id = useId();
  return (
    <div className="sb-input">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} aria-invalid={issues.length > 0 || undefined} aria-describedby={issues.length ? `${id}-e` : undefined} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </select>
      <Errors issues={issues} id={`${id}-e`} />
    </div>
  );
}

function CheckInput({ label, checked, onChange, issues }: { label: string; checked: boolean; onChange(v: boolean): void; issues: Issue[] }) {
  const id = useId();
  return (
    <div className="sb-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-invalid={issues.length > 0 || undefined} />
      <label htmlFor={id}>{label}</label>
      <Errors issues={issues} />
    </div>
  );
}
