import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, apiAll, apiData, canWrite, type Entry, type Me, type Role, type TypeDef } from '../api';
import { MediaField } from '../media/MediaField';
import { navigate, setLeaveGuard } from '../router';
import type { Section } from '../sections';
import { ConfirmButton } from '../settings/team-ui';
import { ErrorState, Link, Loading, str } from '../ui';
import './editor.css';
import { ConflictDialog } from './ConflictDialog';
import { isEmpty, localeDocument, type Locale } from './fieldDiff';
import { defaultLocaleOf, FieldSource, LocaleSwitcher, useLocales } from './LocaleSwitcher';
import { PreviewButton } from './PreviewButton';
import { VersionsPanel } from './VersionsPanel';
import { controlId, FieldList, FormCtx, fromLocalInput, toLocalInput, zoneLabel, type ComponentDef, type FormContext, type SchemaField } from './fields';

// The entry editor: the form generated from the type's schema (pages, collection items) or the
// fixed fields of a blog post, with save, autosave, publish, schedule, clone and delete. Layout:
// <EditorToolbar> (actions), the form, and an <aside> (status, schedule, SEO) that other panels
// (versions, preview) extend. A 409 VERSION_CONFLICT lands in the `conflict` state and keeps what
// was typed.

type Kind = 'page' | 'item' | 'post';
interface Draft { name: string; slug: string; fields: Record<string, unknown>; seo: Record<string, unknown> }
export interface Conflict { currentVersion: number | undefined; message: string }
interface Issue { path: string; message: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (isRecord(x) ? str(x.id) : str(x))).filter((x): x is string => Boolean(x)) : []);

/** A blog post's fixed fields, as the generic form renders them. */
const postFields: SchemaField[] = [
  { name: 'summary', label: 'Summary', type: 'textarea', options: { maxLength: 5000 } },
  { name: 'body', label: 'Body', type: 'wysiwyg' },
  { name: 'featuredImageId', label: 'Featured image', type: 'image' },
  { name: 'author', label: 'Author', type: 'reference', options: { referenceType: 'blogAuthor' } },
  { name: 'categories', label: 'Categories', type: 'reference', options: { referenceType: 'blogCategory', multiple: true } },
  { name: 'tags', label: 'Tags', type: 'reference', options: { referenceType: 'blogTag', multiple: true } },
];

/** The locale a page or item is edited in: its code, the project's default, and the localized fields. */
interface EditLocale { code: string; def: string; localized: ReadonlySet<string> }

function draftOf(kind: Kind, e: Entry, loc?: EditLocale): Draft {
  if (loc && loc.code !== loc.def && kind !== 'post') {
    // Another locale: its own values of the localized fields and the shared ones; its own SEO.
    const seoLocales = isRecord(e.seoLocales) ? e.seoLocales : {};
    const seo = seoLocales[loc.code];
    return { name: e.name, slug: e.slug, fields: localeDocument(e, loc.code, loc.def, loc.localized), seo: isRecord(seo) ? { ...seo } : {} };
  }
  const seo = isRecord(e.seo) ? { ...e.seo } : {};
  if (kind === 'post') {
    const image = isRecord(e.featuredImage) ? str(e.featuredImage.id) : str(e.featuredImageId);
    return {
      name: str(e.title) ?? '', slug: e.slug, seo,
      fields: {
        summary: str(e.summary) ?? '', body: str(e.body) ?? '', featuredImageId: image ?? null,
        author: isRecord(e.author) ? str(e.author.id) ?? null : str(e.author) ?? null,
        categories: ids(e.categories), tags: ids(e.tags),
      },
    };
  }
  return { name: e.name, slug: e.slug, fields: isRecord(e.draftContent) ? { ...e.draftContent } : {}, seo };
}

/** A slug from a name: `Ça va, World!` → `ca-va-world`. */
const slugify = (t: string) => t.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 200);

/** The API's paths (`title`, `rows[0].caption`, `seo.metaTitle`, `name`) as the form's. */
function formPath(kind: Kind, p: string): string {
  if (p === 'name' || p === 'slug' || p.startsWith('seo.') || p.startsWith('fields.')) return p;
  if (kind === 'post' && p === 'title') return 'name';
  return `fields.${p}`;
}

function issuesOf(kind: Kind, err: ApiError): Issue[] {
  const d = err.details;
  const list = Array.isArray(d) ? d : isRecord(d) && Array.isArray(d.issues) ? d.issues : [];
  return list.filter(isRecord).map((i) => ({ path: formPath(kind, str(i.path) ?? ''), message: str(i.message) ?? 'invalid' }));
}

function useRole(project: string) {
  const me = useQuery({ queryKey: ['me'], queryFn: () => apiData<Me>('/auth/me'), retry: false, staleTime: 60_000 });
  return me.data?.memberships.find((m) => m.project.slug === project)?.role;
}

export function EntryScreen({ project, section, id }: { project: string; section: Section; id: string }) {
  const kind = section.kind as Kind; // cast: App renders this screen for pages, items and posts only
  const typeSlug = section.list.params.pageType ?? section.list.params.collection ?? '';
  const creating = id === 'new';
  const path = `${section.list.path}/${encodeURIComponent(id)}`;
  const entry = useQuery({ queryKey: [project, 'entry', section.key, id], queryFn: () => apiData<Entry>(path, { project }), enabled: !creating, staleTime: Infinity });
  const type = useQuery({
    queryKey: [project, 'type', section.key],
    queryFn: () => apiData<TypeDef>(`${kind === 'page' ? '/page-types' : '/collection-types'}/${encodeURIComponent(typeSlug)}`, { project }),
    enabled: kind !== 'post',
  });
  const components = useQuery({ queryKey: [project, 'components'], queryFn: () => apiAll<ComponentDef>('/components', { project }), enabled: kind !== 'post' });
  const role = useRole(project);
  const locales = useLocales(project);
  const [locale, setLocale] = useState<string | null>(null);
  /** Bumped when the entry changed under the editor (conflict resolved, version restored): the form reloads. */
  const [reload, setReload] = useState(0);
  const queryClient = useQueryClient();
  const back = <p><Link to={section.to}>← {section.label}</Link></p>;
  const pending = (!creating && entry.isPending) || (kind !== 'post' && (type.isPending || components.isPending || locales.isPending));
  const error = entry.error ?? type.error ?? components.error;
  if (error) return <>{back}<ErrorState error={error} retry={() => { void entry.refetch(); void type.refetch(); void components.refetch(); }} /></>;
  if (pending) return <>{back}<Loading label={creating ? 'Loading the form…' : 'Loading the entry…'} /></>;
  const fields = kind === 'post' ? postFields : ((type.data?.fields ?? []) as SchemaField[]); // cast: the type's schema from the API
  return (
    <Editor key={`${entry.data?.id ?? 'new'}:${locale ?? ''}:${reload}`} project={project}
      role={role} locales={kind === 'post' || creating ? [] : locales.data ?? []} locale={locale ?? defaultLocaleOf(locales.data) ?? ''} onLocale={setLocale}
      onReload={(e) => { queryClient.setQueryData([project, 'entry', section.key, id], e); setReload((n) => n + 1); }} section={section} kind={kind} typeSlug={typeSlug} entry={creating ? null : entry.data ?? null}
      fields={fields} components={new Map((components.data ?? []).map((c) => [c.slug, c]))} writable={canWrite(role)} back={back} />
  );
}

interface EditorProps {
  project: string; section: Section; kind: Kind; typeSlug: string; entry: Entry | null; fields: SchemaField[]; components: Map<string, ComponentDef>; writable: boolean; back: ReactNode;
  role: Role | undefined;
  /** The project's locales (none for blog posts and new entries: those are written in the default locale). */
  locales: Locale[];
  locale: string;
  onLocale(code: string): void;
  /** The entry changed on the server (conflict resolved, version restored): reload the form with it. */
  onReload(entry: Entry): void;
}

function initialFields(fields: SchemaField[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue]));
}

function Editor({ project, section, kind, typeSlug, entry, fields, components, writable, back, role, locales, locale, onLocale, onReload }: EditorProps) {
  const queryClient = useQueryClient();
  const multilingual = locales.length > 1;
  const defaultLocale = defaultLocaleOf(locales) ?? locale;
  const localized = useMemo(() => new Set(fields.filter((f) => (f as { localized?: boolean }).localized).map((f) => f.name)), [fields]);
  const editLocale: EditLocale | undefined = multilingual ? { code: locale, def: defaultLocale, localized } : undefined;
  const [conflictOpen, setConflictOpen] = useState(false);
  const creating = entry === null;
  const [current, setCurrent] = useState<Entry | null>(entry);
  const [draft, setDraft] = useState<Draft>(() => (entry ? draftOf(kind, entry, editLocale) : { name: '', slug: '', fields: kind === 'post' ? { summary: '', body: '', featuredImageId: null, author: null, categories: [], tags: [] } : initialFields(fields), seo: {} }));
  const [slugTouched, setSlugTouched] = useState(!creating);
  /** The version the editor has loaded (pages and items): sent with every save. */
  const version = useRef<number | undefined>(entry?.version);
  const [edits, setEdits] = useState(0);
  const savedEdits = useRef(0);
  const dirty = edits !== savedEdits.current;
  const [errors, setErrors] = useState<Issue[]>([]);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [status, setStatus] = useState<{ text: string; tone?: 'error' | 'ok' } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [autosave, setAutosave] = useState<{ state: 'idle' | 'saving' | 'saved' | 'failed'; at?: Date; message?: string }>({ state: 'idle' });
  const [refusal, setRefusal] = useState<{ message: string; referrers: Array<Record<string, unknown>> } | null>(null);
  const refusalRef = useRef<HTMLDivElement>(null);
  /** Back to the Delete button (the refusal's buttons are gone once it is answered). */
  const focusToolbar = () => setTimeout(() => document.querySelector<HTMLButtonElement>('.editor-toolbar button.danger')?.focus(), 0);
  // A refused delete takes the focus to its explanation (the buttons it came from are gone).
  useEffect(() => { if (refusal) refusalRef.current?.focus(); }, [refusal]);
  const inFlight = useRef(false);
  /** Bumped when autosave found a save in flight: it tries again later. */
  const [retry, setRetry] = useState(0);
  const summaryRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirst = useRef(false);
  const readOnly = !writable;
  const base = section.list.path;
  const entryPath = current ? `${base}/${encodeURIComponent(current.id)}` : base;

  const update = (change: Partial<Draft>) => { setDraft((d) => ({ ...d, ...change })); setEdits((n) => n + 1); };
  const setLocalError = useCallback((p: string, m: string | null) => setLocalErrors((e) => {
    if ((e[p] ?? null) === m) return e;
    const n = { ...e };
    if (m === null) delete n[p]; else n[p] = m;
    return n;
  }), []);
  const errorMap = useMemo(() => Object.fromEntries(errors.map((i) => [i.path, i.message])), [errors]);
  const ctx: FormContext = useMemo(() => ({ project, readOnly, errors: errorMap, components, setLocalError }), [project, readOnly, errorMap, components, setLocalError]);

  // After a refused save: focus the first invalid control (in the order of the form).
  useEffect(() => {
    if (!focusFirst.current || errors.length === 0) return;
    focusFirst.current = false;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (first) first.focus(); else summaryRef.current?.focus();
  }, [errors]);

  // Unsaved changes: the browser asks before leaving, and links of the app ask too.
  useEffect(() => {
    if (!dirty || readOnly) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = ''; };
    const onClick = (e: MouseEvent) => {
      const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
      if (!a || a.closest('.editor-summary') || a.getAttribute('href')?.startsWith('#')) return;
      if (!window.confirm('You have unsaved changes. Leave without saving?')) { e.preventDefault(); e.stopImmediatePropagation(); }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    // The browser's Back/Forward: ask too; staying puts the editor's address back.
    const removeGuard = setLeaveGuard(() => window.confirm('You have unsaved changes. Leave without saving?'));
    return () => { window.removeEventListener('beforeunload', onBeforeUnload); document.removeEventListener('click', onClick, true); removeGuard(); };
  }, [dirty, readOnly]);

  const body = (): Record<string, unknown> => {
    const seo = kind === 'item' ? undefined : draft.seo;
    if (kind === 'post') return { title: draft.name, slug: draft.slug, ...draft.fields, ...(seo ? { seo } : {}) };
    if (!multilingual) return { name: draft.name, slug: draft.slug, fields: draft.fields, ...(seo ? { seo } : {}) };
    // In a locale other than the default, an emptied localized field is null: the locale falls back again.
    const fieldsIn = locale === defaultLocale ? draft.fields
      : Object.fromEntries(Object.entries(draft.fields).map(([k, v]) => [k, localized.has(k) && isEmpty(v) ? null : v]));
    return { name: draft.name, slug: draft.slug, fields: fieldsIn, ...(seo ? { seo } : {}), locale };
  };

  const accept = (e: Entry, atEdits: number) => {
    setCurrent(e);
    if (e.version !== undefined) version.current = e.version;
    savedEdits.current = atEdits;
    queryClient.setQueryData([project, 'entry', section.key, e.id], e);
    void queryClient.invalidateQueries({ queryKey: [project, 'list', section.key] });
    void queryClient.invalidateQueries({ queryKey: [project, 'count', section.key] });
  };

  /** Routes an API refusal: field errors, the version conflict, or a message. */
  const refuse = (err: unknown, focus: boolean): void => {
    if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') {
      const d = isRecord(err.details) ? err.details : {};
      setConflict({ currentVersion: typeof d.currentVersion === 'number' ? d.currentVersion : undefined, message: err.message });
      setConflictOpen(true);
      setStatus({ text: 'Not saved: someone else saved this entry meanwhile.', tone: 'error' });
      return;
    }
    if (err instanceof ApiError && err.code === 'VALIDATION_FAILED' && Array.isArray(err.details)
      && err.details.length > 0 && err.details.every((i) => isRecord(i) && (i.path === 'publishAt' || i.path === 'unpublishAt'))) {
      // A refused schedule: the times are not form fields, so the status says what is wrong.
      setStatus({ text: `Not scheduled: ${err.message}.`, tone: 'error' });
      return;
    }
    if (err instanceof ApiError && err.code === 'REQUIRED_FIELDS_MISSING') {
      // Each empty required field at its place in the form; one required in another locale
      // (`fr.headline`) in the list at the top, since the form shows one locale.
      const names = isRecord(err.details) && Array.isArray(err.details.fields) ? err.details.fields.filter((f): f is string => typeof f === 'string') : [];
      const codes = new Set(locales.map((l) => l.code));
      const list: Issue[] = names.map((name) => {
        const dot = name.indexOf('.');
        const code = dot > 0 ? name.slice(0, dot) : '';
        if (codes.has(code)) {
          const label = locales.find((l) => l.code === code)?.name ?? code;
          return { path: '', message: `${name.slice(dot + 1)} is required in ${label} (${code}) too: switch to that locale to fill it in` };
        }
        return { path: formPath(kind, name), message: 'required to publish' };
      });
      focusFirst.current = focus;
      setErrors(list.length ? list : [{ path: '', message: err.message }]);
      setStatus({ text: `Not published: ${list.length || 1} required ${list.length === 1 ? 'field is' : 'fields are'} empty.`, tone: 'error' });
      return;
    }
    if (err instanceof ApiError && err.code === 'VALIDATION_FAILED') {
      const list = issuesOf(kind, err);
      focusFirst.current = focus;
      setErrors(list.length ? list : [{ path: '', message: err.message }]);
      setStatus({ text: `Not saved: ${list.length || 1} ${list.length === 1 ? 'problem' : 'problems'} to fix.`, tone: 'error' });
      return;
    }
    setStatus({ text: err instanceof ApiError ? `${err.message} (${err.code})` : 'The server could not be reached.', tone: 'error' });
  };

  const jsonBlocked = Object.keys(localErrors).length > 0;

  /** Save draft (PUT with the loaded version), or create. True when saved. */
  const save = async (): Promise<boolean> => {
    if (jsonBlocked) {
      setStatus({ text: 'Not saved: a JSON field does not parse. Fix it first.', tone: 'error' });
      formRef.current?.querySelector<HTMLElement>('textarea.code[aria-invalid="true"]')?.focus();
      return false;
    }
    while (inFlight.current) await new Promise((r) => setTimeout(r, 50));
    inFlight.current = true;
    setBusy('save');
    const atEdits = edits;
    try {
      if (creating && !current) {
        const typeKey = kind === 'page' ? { pageTypeSlug: typeSlug } : kind === 'item' ? { collectionTypeSlug: typeSlug } : {};
        const created = await apiData<Entry>(base, { method: 'POST', body: { ...typeKey, ...body() }, project });
        savedEdits.current = atEdits;
        setErrors([]);
        void queryClient.invalidateQueries({ queryKey: [project] });
        navigate(`${section.to}/${encodeURIComponent(created.id)}`, { replace: true });
        return true;
      }
      const saved = await apiData<Entry>(entryPath, { method: 'PUT', body: { ...body(), ...(version.current !== undefined ? { version: version.current } : {}) }, project });
      accept(saved, atEdits);
      setErrors([]);
      setConflict(null);
      setStatus({ text: `Saved at ${new Date().toLocaleTimeString()}`, tone: 'ok' });
      return true;
    } catch (err) {
      refuse(err, true);
      return false;
    } finally {
      inFlight.current = false;
      setBusy(null);
    }
  };

  // Autosave: 1.5 s after the last change, through the autosave route (no event, same checks).
  useEffect(() => {
    if (creating || readOnly || !dirty || conflict || jsonBlocked || kind === 'post') return;
    const t = setTimeout(() => {
      if (inFlight.current) { setRetry((r) => r + 1); return; }
      inFlight.current = true;
      const atEdits = edits;
      setAutosave({ state: 'saving' });
      apiData<Entry>(`${entryPath}/autosave`, { method: 'POST', body: { ...body(), ...(version.current !== undefined ? { version: version.current } : {}) }, project })
        .then((saved) => { accept(saved, atEdits); setErrors([]); setAutosave({ state: 'saved', at: new Date() }); })
        .catch((err: unknown) => {
          setAutosave({ state: 'failed', message: err instanceof ApiError && err.code === 'VALIDATION_FAILED' ? 'Not autosaved: see the problems above' : err instanceof ApiError ? err.message : 'Not autosaved: the server could not be reached' });
          refuse(err, false);
        })
        .finally(() => { inFlight.current = false; });
    }, 1500);
    return () => clearTimeout(t);
  }, [edits, dirty, conflict, jsonBlocked, retry]); // eslint-disable-line react-hooks/exhaustive-deps

  const action = async (name: string, run: () => Promise<Entry | null>, done: string) => {
    setBusy(name);
    try {
      const e = await run();
      if (e) accept(e, savedEdits.current);
      setErrors([]);
      setStatus({ text: done, tone: 'ok' });
    } catch (err) {
      refuse(err, true);
    } finally {
      setBusy(null);
    }
  };
  const publish = async () => {
    if (dirty && !(await save())) return;
    await action('publish', () => apiData<Entry>(`${entryPath}/publish`, { method: 'POST', body: {}, project }), 'Published.');
  };
  const unpublish = () => action('unpublish', () => apiData<Entry>(`${entryPath}/unpublish`, { method: 'POST', body: {}, project }), 'Unpublished: the entry is a draft again.');
  const [scheduleAt, setScheduleAt] = useState(toLocalInput(entry?.publishAt ?? null));
  const schedule = async () => {
    const at = fromLocalInput(scheduleAt);
    if (!at) { setStatus({ text: 'Choose a date and time to schedule.', tone: 'error' }); return; }
    if (dirty && !(await save())) return;
    await action('schedule', () => apiData<Entry>(`${entryPath}/schedule`, { method: 'POST', body: { publishAt: at }, project }), `Scheduled to publish at ${new Date(at).toLocaleString()}.`);
  };
  const unschedule = () => action('unschedule', () => apiData<Entry>(`${entryPath}/schedule?which=publish`, { method: 'DELETE', body: {}, project }), 'Scheduled publish cancelled.');
  const [unpublishAt, setUnpublishAt] = useState(toLocalInput(entry?.unpublishAt ?? null));
  const scheduleUnpublish = async () => {
    const at = fromLocalInput(unpublishAt);
    if (!at) { setStatus({ text: 'Choose a date and time to unpublish at.', tone: 'error' }); return; }
    await action('schedule', () => apiData<Entry>(`${entryPath}/schedule`, { method: 'POST', body: { unpublishAt: at }, project }), `Scheduled to unpublish at ${new Date(at).toLocaleString()}.`);
  };
  const cancelUnpublish = () => action('unschedule', () => apiData<Entry>(`${entryPath}/schedule?which=unpublish`, { method: 'DELETE', body: {}, project }), 'Scheduled unpublish cancelled.');
  const clone = async () => {
    setBusy('clone');
    try {
      const c = await apiData<Entry>(`${entryPath}/clone`, { method: 'POST', body: {}, project });
      void queryClient.invalidateQueries({ queryKey: [project] });
      navigate(`${section.to}/${encodeURIComponent(c.id)}`);
    } catch (err) { refuse(err, false); } finally { setBusy(null); }
  };
  const remove = async (force: boolean) => {
    setBusy('delete');
    try {
      await api(`${entryPath}${force ? '?force=true' : ''}`, { method: 'DELETE', body: {}, project });
      savedEdits.current = edits;
      void queryClient.invalidateQueries({ queryKey: [project] });
      navigate(section.to);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'HAS_REFERENCES') {
        const d = isRecord(err.details) ? err.details : {};
        setRefusal({ message: err.message, referrers: Array.isArray(d.referrers) ? d.referrers.filter(isRecord) : [] });
      } else refuse(err, false);
    } finally { setBusy(null); }
  };

  const submit = (e: FormEvent) => { e.preventDefault(); void save(); };
  const st = current ? (current.publishAt && current.status !== 'published' ? 'scheduled' : current.status) : 'new';
  const title = draft.name || (creating ? `New ${kind === 'post' ? 'post' : kind === 'page' ? 'page' : 'item'}` : current?.slug ?? '');
  const allErrors = [...errors, ...Object.entries(localErrors).map(([p, m]) => ({ path: p, message: m }))];
  const nameLabel = kind === 'post' ? 'Title' : 'Name';
  const nameErr = errorMap.name;
  const slugErr = errorMap.slug;

  return (
    <FormCtx.Provider value={ctx}>
      <article className="editor" aria-labelledby="entry-title">
        {back}
        <div className="editor-head">
          <h1 id="entry-title" className="clip" title={title}>{title}</h1>
          <span className={`badge ${st}`}>{st}</span>
          {readOnly && <span className="badge">read-only</span>}
        </div>
        {(multilingual || (current && kind !== 'post' && role)) && (
          <div className="editor-locale-row">
            <LocaleSwitcher locales={locales} value={locale} onChange={onLocale} disabled={dirty && !readOnly} />
            {multilingual && dirty && !readOnly && <span className="muted small">Save your changes to switch locale.</span>}
            {current && kind !== 'post' && role && (
              <PreviewButton project={project} role={role} kind={kind} type={typeSlug} slug={current.slug} id={current.id} locale={multilingual ? locale : undefined} defaultLocale={defaultLocale || undefined} />
            )}
          </div>
        )}
        {writable && (
          <EditorToolbar>
            <button type="submit" form="entry-form" className="primary" disabled={busy !== null}>{busy === 'save' ? 'Saving…' : creating && !current ? 'Create draft' : 'Save draft'}</button>
            {current && <button type="button" onClick={() => void publish()} disabled={busy !== null}>{busy === 'publish' ? 'Publishing…' : 'Publish'}</button>}
            {current && current.status === 'published' && <button type="button" onClick={() => void unpublish()} disabled={busy !== null}>Unpublish</button>}
            {current && kind !== 'post' && <button type="button" onClick={() => void clone()} disabled={busy !== null}>Clone</button>}
            {current && (
              <ConfirmButton label="Delete" confirmLabel="Confirm delete" question={`Delete this ${kind === 'post' ? 'post' : kind === 'page' ? 'page' : 'item'}?`}
                onConfirm={() => void remove(false)} disabled={busy !== null} pending={busy === 'delete'} />
            )}
            <span className="autosave" role="status" aria-live="polite">
              {autosave.state === 'saving' ? 'Saving…' : autosave.state === 'saved' && autosave.at ? `Saved at ${autosave.at.toLocaleTimeString()}` : autosave.state === 'failed' ? autosave.message : dirty ? 'Unsaved changes' : ''}
            </span>
          </EditorToolbar>
        )}
        {status && <p className={`editor-status ${status.tone ?? ''}`} role={status.tone === 'error' ? 'alert' : 'status'}>{status.text}</p>}
        {conflict && (
          <div className="notice conflict" role="alert" data-conflict>
            <strong>Someone else saved this entry meanwhile</strong> (now at version {conflict.currentVersion ?? '?'}; you started from {version.current ?? '?'}).
            What you typed is kept here, not saved.{' '}
            {writable && current && kind !== 'post' && <button type="button" onClick={() => setConflictOpen(true)}>Resolve the conflict…</button>}
          </div>
        )}
        {conflict && conflictOpen && current && kind !== 'post' && (
          <ConflictDialog project={project} path={entryPath} baseVersion={version.current ?? 0} mine={draft.fields}
            fields={fields.map((f) => ({ name: f.name, label: f.label || f.name, localized: localized.has(f.name) }))}
            locale={multilingual ? locale : undefined} defaultLocale={multilingual ? defaultLocale : undefined}
            onClose={() => setConflictOpen(false)}
            onResolved={(e) => { savedEdits.current = edits; setConflict(null); setConflictOpen(false); onReload(e); }} />
        )}
        {refusal && (
          <div className="card refusal" role="alert" tabIndex={-1} ref={refusalRef} aria-labelledby="refusal-title">
            <p id="refusal-title"><strong>Not deleted:</strong> {refusal.referrers.length
              ? `${refusal.referrers.length === 1 ? 'another entry refers' : `${refusal.referrers.length} entries refer`} to it. Remove ${refusal.referrers.length === 1 ? 'that reference' : 'those references'} first, or delete it anyway.`
              : refusal.message}</p>
            {refusal.referrers.length > 0 && (
              <ul>{refusal.referrers.map((r, i) => <li key={i}>{str(r.type) === 'page' ? 'Page' : 'Item'} <code>{str(r.slug)}</code>{str(r.typeSlug) ? ` (${str(r.typeSlug)})` : ''}</li>)}</ul>
            )}
            <button type="button" className="danger" onClick={() => { setRefusal(null); void remove(true); }}>Delete anyway (leaves those references broken)</button>
            <button type="button" onClick={() => { setRefusal(null); focusToolbar(); }}>Keep it</button>
          </div>
        )}
        {allErrors.length > 0 && (
          <div className="card editor-summary" role="alert" tabIndex={-1} ref={summaryRef} aria-labelledby="summary-title">
            <h2 id="summary-title">{allErrors.length} {allErrors.length === 1 ? 'problem' : 'problems'} to fix</h2>
            <ul>
              {allErrors.map((i) => (
                <li key={i.path + i.message}>
                  <a href={`#${controlId(i.path)}`} onClick={(e) => { e.preventDefault(); focusPath(formRef.current, i.path); }}>{i.path ? `${labelOfPath(i.path, fields)}: ` : ''}{i.message}</a>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="editor-layout">
          <form id="entry-form" ref={formRef} className="editor-form card" onSubmit={submit} noValidate aria-label="Entry form">
            <div className={`efield${nameErr ? ' has-error' : ''}`} data-field="name">
              <div className="efield-head"><label htmlFor={controlId('name')}>{nameLabel}<span className="req" aria-hidden="true"> *</span></label></div>
              <input id={controlId('name')} type="text" value={draft.name} readOnly={readOnly} required aria-invalid={nameErr ? true : undefined} aria-describedby={nameErr ? `${controlId('name')}-error` : undefined}
                onChange={(e) => update({ name: e.target.value, ...(slugTouched ? {} : { slug: slugify(e.target.value) }) })} />
              {nameErr && <p className="error field-error" id={`${controlId('name')}-error`}>{nameErr}</p>}
            </div>
            <div className={`efield${slugErr ? ' has-error' : ''}`} data-field="slug">
              <div className="efield-head"><label htmlFor={controlId('slug')}>Slug<span className="req" aria-hidden="true"> *</span></label></div>
              <input id={controlId('slug')} type="text" className="mono" value={draft.slug} readOnly={readOnly} required spellCheck={false} aria-invalid={slugErr ? true : undefined}
                aria-describedby={`${controlId('slug')}-help${slugErr ? ` ${controlId('slug')}-error` : ''}`}
                onChange={(e) => { setSlugTouched(true); update({ slug: e.target.value }); }} />
              {slugErr && <p className="error field-error" id={`${controlId('slug')}-error`}>{slugErr}</p>}
              <p className="help" id={`${controlId('slug')}-help`}>Lowercase letters, digits and hyphens{creating ? '; made from the name until you change it' : ''}.</p>
            </div>
            {fields.length === 0 && kind !== 'post' && <p className="muted">This type has no fields.</p>}
            {multilingual
              ? fields.map((f) => (
                <div key={f.name} className="field-with-source">
                  <FieldList fields={[f]} values={draft.fields} base="fields" onChange={(v) => update({ fields: v })} />
                  {current && <FieldSource locales={locales} locale={locale} field={f.name} localized={localized.has(f.name)}
                    entry={locale === defaultLocale
                      ? { draftContent: draft.fields, draftLocales: current.draftLocales }
                      : { draftContent: current.draftContent, draftLocales: { ...(isRecord(current.draftLocales) ? current.draftLocales : {}), [locale]: draft.fields } }} />}
                </div>
              ))
              : <FieldList fields={fields} values={draft.fields} base="fields" onChange={(v) => update({ fields: v })} />}
          </form>
          <aside className="editor-aside" aria-label="Entry details">
            <section className="card" aria-labelledby="facts-title">
              <h2 id="facts-title">Status</h2>
              <dl className="facts">
                <div><dt>Status</dt><dd><span className={`badge ${st}`}>{st}</span></dd></div>
                {current?.version !== undefined && <div><dt>Version</dt><dd>{current.version}</dd></div>}
                {current?.updatedAt && <div><dt>Updated</dt><dd><time dateTime={current.updatedAt}>{new Date(current.updatedAt).toLocaleString()}</time></dd></div>}
                {current?.publishAt && <div><dt>Publishes at</dt><dd><time dateTime={current.publishAt}>{new Date(current.publishAt).toLocaleString()}</time></dd></div>}
                {current?.unpublishAt && <div><dt>Unpublishes at</dt><dd><time dateTime={current.unpublishAt}>{new Date(current.unpublishAt).toLocaleString()}</time></dd></div>}
              </dl>
            </section>
            {current && kind !== 'post' && writable && (
              <section className="card" aria-labelledby="schedule-title">
                <h2 id="schedule-title">Schedule</h2>
                <label htmlFor="schedule-at">Publish at</label>
                <input id="schedule-at" type="datetime-local" value={scheduleAt} onChange={(e) => setScheduleAt(e.target.value)} aria-describedby="schedule-zone" />
                <p className="muted small" id="schedule-zone">In your time zone: {zoneLabel()}. The server publishes and unpublishes within a minute of the time.</p>
                <div className="btnrow">
                  <button type="button" onClick={() => void schedule()} disabled={busy !== null}>Schedule publish</button>
                  {current.publishAt && <button type="button" onClick={() => void unschedule()} disabled={busy !== null}>Cancel scheduled publish</button>}
                </div>
                <label htmlFor="unpublish-at">Unpublish at</label>
                <input id="unpublish-at" type="datetime-local" value={unpublishAt} onChange={(e) => setUnpublishAt(e.target.value)} aria-describedby="schedule-zone" />
                <div className="btnrow">
                  <button type="button" onClick={() => void scheduleUnpublish()} disabled={busy !== null}>Schedule unpublish</button>
                  {current.unpublishAt && <button type="button" onClick={() => void cancelUnpublish()} disabled={busy !== null}>Cancel scheduled unpublish</button>}
                </div>
              </section>
            )}
            {current && kind !== 'post' && (
              <VersionsPanel project={project} path={entryPath} current={current} canRestore={writable} canListMembers={role === 'admin' || role === 'owner'}
                fields={fields.map((f) => ({ name: f.name, label: f.label || f.name }))}
                onRestored={(e) => { savedEdits.current = edits; onReload(e); }} />
            )}
            {kind !== 'item' && <SeoPanel project={project} seo={draft.seo} readOnly={readOnly} name={draft.name} slug={draft.slug} errors={errorMap} onChange={(seo) => update({ seo })} />}
          </aside>
        </div>
      </article>
    </FormCtx.Provider>
  );
}

/** The editor's actions; other panels add their buttons here. */
export function EditorToolbar({ children }: { children: ReactNode }) {
  return <div className="toolbar editor-toolbar" role="toolbar" aria-label="Entry actions">{children}</div>;
}

function labelOfPath(p: string, fields: SchemaField[]): string {
  if (p === 'name' || p === 'slug') return p === 'name' ? 'Name' : 'Slug';
  const parts = p.replace(/^fields\./, '').split('.');
  const top = fields.find((f) => f.name === parts[0]?.replace(/\[.*$/, ''));
  return (top ? (top.label || top.name) : parts[0] ?? p) + (parts.length > 1 || /\[/.test(parts[0] ?? '') ? ` (${p.replace(/^fields\./, '')})` : '');
}

/** Focuses the control of a path, or the nearest field wrapper that holds it. */
function focusPath(form: HTMLFormElement | null, p: string) {
  const el = document.getElementById(controlId(p));
  if (el) { el.focus(); return; }
  const wrapper = form?.querySelector(`[data-field="${CSS.escape(p)}"]`) ?? document.querySelector(`[data-field="${CSS.escape(p)}"]`);
  wrapper?.querySelector<HTMLElement>('input, textarea, select, button, [tabindex]')?.focus();
}

const seoFields: Array<{ key: string; label: string; hint?: number; area?: boolean }> = [
  { key: 'metaTitle', label: 'Meta title', hint: 60 },
  { key: 'metaDescription', label: 'Meta description', hint: 160, area: true },
  { key: 'metaRobots', label: 'Meta robots' },
  { key: 'ogTitle', label: 'Open Graph title', hint: 60 },
  { key: 'ogDescription', label: 'Open Graph description', hint: 160, area: true },
  { key: 'canonicalUrl', label: 'Canonical URL' },
];

function SeoPanel({ project, seo, readOnly, name, slug, errors, onChange }: { project: string; seo: Record<string, unknown>; readOnly: boolean; name: string; slug: string; errors: Record<string, string>; onChange(seo: Record<string, unknown>): void }) {
  const set = (k: string, v: unknown) => onChange({ ...seo, [k]: v === '' ? null : v });
  const title = str(seo.metaTitle) || name || 'Untitled';
  const description = str(seo.metaDescription) || 'No meta description: search engines pick text from the page.';
  return (
    <section className="card seo" aria-labelledby="seo-title">
      <h2 id="seo-title">SEO</h2>
      {seoFields.map((f) => {
        const id = controlId(`seo.${f.key}`);
        const v = str(seo[f.key]) ?? '';
        const err = errors[`seo.${f.key}`];
        const over = f.hint !== undefined && v.length > f.hint;
        return (
          <div key={f.key} className={`efield${err ? ' has-error' : ''}`} data-field={`seo.${f.key}`}>
            <div className="efield-head">
              <label htmlFor={id}>{f.label}</label>
              {f.hint !== undefined && <span className={`counter${over ? ' over' : ''}`} id={`${id}-count`}>{v.length} / {f.hint}</span>}
            </div>
            {f.area
              ? <textarea id={id} rows={3} value={v} readOnly={readOnly} aria-invalid={err ? true : undefined} aria-describedby={[err ? `${id}-error` : null, f.hint ? `${id}-count` : null].filter(Boolean).join(' ') || undefined} onChange={(e) => set(f.key, e.target.value)} />
              : <input id={id} type={f.key === 'canonicalUrl' ? 'url' : 'text'} value={v} readOnly={readOnly} placeholder={f.key === 'metaRobots' ? 'index, follow' : undefined} aria-invalid={err ? true : undefined}
                aria-describedby={[err ? `${id}-error` : null, f.hint ? `${id}-count` : null].filter(Boolean).join(' ') || undefined} onChange={(e) => set(f.key, e.target.value)} />}
            {over && <p className="hint-warn">Longer than about {f.hint} characters: search engines may cut it.</p>}
            {err && <p className="error field-error" id={`${id}-error`}>{err}</p>}
          </div>
        );
      })}
      <div className="efield" data-field="seo.ogImageId">
        <div className="efield-head"><label htmlFor={controlId('seo.ogImageId')}>Open Graph image</label></div>
        <MediaField id={controlId('seo.ogImageId')} label="Open Graph image" project={project} value={str(seo.ogImageId) ?? null} onChange={(v) => set('ogImageId', v)} kind="image" readOnly={readOnly} invalid={Boolean(errors['seo.ogImageId'])} />
        {errors['seo.ogImageId'] && <p className="error field-error">{errors['seo.ogImageId']}</p>}
      </div>
      <h3 className="small-title">Search result preview</h3>
      <div className="serp" aria-label="Search result preview">
        <span className="serp-url clip">{str(seo.canonicalUrl) || `https://example.com/${slug}`}</span>
        <span className="serp-title clip">{title.length > 60 ? `${title.slice(0, 59)}…` : title}</span>
        <span className="serp-desc">{description.length > 160 ? `${description.slice(0, 159)}…` : description}</span>
      </div>
    </section>
  );
}
