import { useQuery } from '@tanstack/react-query';
import { createContext, lazy, Suspense, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { api, apiData, type Listed } from '../api';
import { MediaField } from '../media/MediaField';
import { fileUrl, type Media } from '../media/mediaApi';
import { str, useDebounced } from '../ui';
import { RichTextField, type RichTextFieldProps } from './richtext/RichTextField';

const MediaPickerDialog = lazy(() => import('../media/MediaPickerDialog').then((m) => ({ default: m.MediaPickerDialog })));

// The controls of the entry editor, one per field type, generated from the schema. Values live in
// one object (the entry's fields); every control writes through onChange with its new value. Every
// field's wrapper carries data-field="<json path>" (fields.title, fields.rows[0].caption), the path
// the API names in VALIDATION_FAILED details.

export interface SchemaField {
  name: string;
  label?: string;
  type: string;
  required?: boolean;
  options?: Record<string, unknown>;
  defaultValue?: unknown;
}
export interface ComponentDef { slug: string; name: string; fields: SchemaField[] }

export interface FormContext {
  project: string;
  readOnly: boolean;
  /** Messages by JSON path (fields.title, fields.rows[0].caption, seo.metaTitle). */
  errors: Record<string, string>;
  components: Map<string, ComponentDef>;
  /** A json control reports text that does not parse (path → message; null when it parses again). */
  setLocalError(path: string, message: string | null): void;
}

export const FormCtx = createContext<FormContext>({ project: '', readOnly: true, errors: {}, components: new Map(), setLocalError: () => {} });

export const controlId = (path: string) => 'f-' + path.replace(/[^a-zA-Z0-9_-]+/g, '-');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const opt = <T,>(o: Record<string, unknown> | undefined, k: string, guard: (v: unknown) => v is T): T | undefined => (o && guard(o[k]) ? o[k] : undefined);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

export const fieldLabel = (f: SchemaField) => f.label || f.name;

/** The errors at a path or below it (a repeater's own message or its rows'). */
function ownError(errors: Record<string, string>, path: string): string | undefined {
  return errors[path] ?? errors[`${path}._type`] ?? errors[`${path}._ref`];
}

/** The label, the control, the help text and the error of one field. */
function Wrapper({ field, path, children, labelFor = true, count }: { field: SchemaField; path: string; children: (a: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode; labelFor?: boolean; count?: ReactNode }) {
  const ctx = useContext(FormCtx);
  const id = controlId(path);
  const help = opt(field.options, 'helpText', isStr);
  const error = ownError(ctx.errors, path);
  const describedBy = [error ? `${id}-error` : null, help ? `${id}-help` : null].filter(Boolean).join(' ') || undefined;
  const label = (
    <>
      {fieldLabel(field)}
      {field.required && <span className="req" aria-hidden="true"> *</span>}
    </>
  );
  return (
    <div className={`efield efield-${field.type}${error ? ' has-error' : ''}`} data-field={path}>
      <div className="efield-head">
        {labelFor ? <label htmlFor={id} id={`${id}-label`}>{label}</label> : <span className="efield-label" id={`${id}-label`}>{label}</span>}
        {count}
      </div>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error && <p className="error field-error" id={`${id}-error`}>{error}</p>}
      {help && <p className="help" id={`${id}-help`}>{help}</p>}
    </div>
  );
}

export function FieldList({ fields, values, onChange, base }: { fields: SchemaField[]; values: Record<string, unknown>; onChange(v: Record<string, unknown>): void; base: string }) {
  return (
    <>
      {fields.map((f) => (
        <FieldControl key={f.name} field={f} path={`${base}.${f.name}`} value={values[f.name]} onChange={(v) => onChange({ ...values, [f.name]: v })} />
      ))}
    </>
  );
}

export function FieldControl({ field, path, value, onChange }: { field: SchemaField; path: string; value: unknown; onChange(v: unknown): void }) {
  const ctx = useContext(FormCtx);
  const o = field.options ?? {};
  const ro = ctx.readOnly;
  const common = (a: { id: string; describedBy: string | undefined; invalid: boolean }) => ({
    id: a.id, 'aria-describedby': a.describedBy, 'aria-invalid': a.invalid || undefined, readOnly: ro, required: field.required,
  });
  switch (field.type) {
    case 'text':
    case 'textarea': {
      const s = str(value) ?? '';
      const max = opt(o, 'maxLength', isNum);
      const min = opt(o, 'minLength', isNum);
      const pattern = opt(o, 'pattern', isStr);
      const n = [...s].length;
      let hint: string | null = null;
      if (s && pattern) {
        try { if (!new RegExp(pattern).test(s)) hint = opt(o, 'patternMessage', isStr) ?? `Must match the pattern ${pattern}`; } catch { /* the server checks */ }
      }
      if (s && min !== undefined && n < min) hint = `At least ${min} characters`;
      const count = max !== undefined || min !== undefined
        ? <span className={`counter${(max !== undefined && n > max) || (min !== undefined && s && n < min) ? ' over' : ''}`} aria-live="polite">{n}{max !== undefined ? ` / ${max}` : ''}{min ? ` (min ${min})` : ''}</span>
        : undefined;
      return (
        <Wrapper field={field} path={path} count={count}>
          {(a) => (
            <>
              {field.type === 'text'
                ? <input type="text" {...common(a)} value={s} placeholder={opt(o, 'placeholder', isStr)} onChange={(e) => onChange(e.target.value)} />
                : <textarea {...common(a)} value={s} rows={4} placeholder={opt(o, 'placeholder', isStr)} onChange={(e) => onChange(e.target.value)} />}
              {hint && !ctx.errors[path] && <p className="hint-warn">{hint}</p>}
            </>
          )}
        </Wrapper>
      );
    }
    case 'number': {
      return (
        <Wrapper field={field} path={path}>
          {(a) => <NumberInput common={common(a)} value={typeof value === 'number' ? value : null} min={opt(o, 'min', isNum)} max={opt(o, 'max', isNum)} step={opt(o, 'step', isNum) ?? 1} placeholder={opt(o, 'placeholder', isStr)} onChange={onChange} />}
        </Wrapper>
      );
    }
    case 'boolean':
      return (
        <Wrapper field={field} path={path}>
          {(a) => (
            <span className="checkline">
              <input type="checkbox" id={a.id} aria-describedby={a.describedBy} aria-invalid={a.invalid || undefined} checked={value === true} disabled={ro}
                onChange={(e) => onChange(e.target.checked)} />
              <span className="muted">{value === true ? 'Yes' : 'No'}</span>
            </span>
          )}
        </Wrapper>
      );
    case 'date':
      return (
        <Wrapper field={field} path={path}>
          {(a) => <input type="date" {...common(a)} value={(str(value) ?? '').slice(0, 10)} onChange={(e) => onChange(e.target.value || null)} />}
        </Wrapper>
      );
    case 'datetime':
      return (
        <Wrapper field={field} path={path}>
          {(a) => <DateTimeInput common={common(a)} value={str(value) ?? null} onChange={onChange} />}
        </Wrapper>
      );
    case 'color':
      return <Wrapper field={field} path={path}>{(a) => <ColorInput common={common(a)} value={str(value) ?? ''} onChange={onChange} label={fieldLabel(field)} />}</Wrapper>;
    case 'json':
      return <Wrapper field={field} path={path}>{(a) => <JsonInput path={path} common={common(a)} value={value} onChange={onChange} />}</Wrapper>;
    case 'select': {
      const choices = Array.isArray(o.choices) ? o.choices.filter(isRecord).map((c) => ({ value: str(c.value) ?? '', label: str(c.label) ?? str(c.value) ?? '' })) : null;
      // A select without choices takes any text.
      if (!choices) {
        return (
          <Wrapper field={field} path={path}>
            {(a) => <input type="text" {...common(a)} value={str(value) ?? ''} onChange={(e) => onChange(e.target.value || null)} />}
          </Wrapper>
        );
      }
      return (
        <Wrapper field={field} path={path}>
          {(a) => (
            <select id={a.id} aria-describedby={a.describedBy} aria-invalid={a.invalid || undefined} disabled={ro} value={str(value) ?? ''} onChange={(e) => onChange(e.target.value || null)}>
              <option value="">— None —</option>
              {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
            </select>
          )}
        </Wrapper>
      );
    }
    case 'image':
    case 'media': {
      const id = typeof value === 'string' ? value : isRecord(value) ? str(value.id) ?? str(value._media) ?? null : null;
      return (
        <Wrapper field={field} path={path}>
          {(a) => (
            <MediaField id={a.id} label={fieldLabel(field)} project={ctx.project} value={id} onChange={(v) => onChange(v)} kind={field.type === 'image' ? 'image' : 'media'}
              {...(Array.isArray(o.allowedMimeTypes) ? { allowedMimeTypes: o.allowedMimeTypes.filter(isStr) } : {})}
              {...(isNum(o.maxFileSize) ? { maxFileSize: o.maxFileSize } : {})}
              readOnly={ro} {...(a.describedBy ? { describedBy: a.describedBy } : {})} invalid={a.invalid} />
          )}
        </Wrapper>
      );
    }
    case 'wysiwyg':
      return (
        <Wrapper field={field} path={path}>
          {(a) => <RichTextWithLibrary id={a.id} label={fieldLabel(field)} project={ctx.project} value={str(value) ?? ''} onChange={onChange} readOnly={ro} {...(a.describedBy ? { describedBy: a.describedBy } : {})} invalid={a.invalid} />}
        </Wrapper>
      );
    case 'reference':
      return <Wrapper field={field} path={path}>{(a) => <ReferencePicker a={a} field={field} value={value} onChange={onChange} />}</Wrapper>;
    case 'nestedComponent': {
      const slug = opt(o, 'componentSlug', isStr) ?? '';
      const def = ctx.components.get(slug);
      const v = isRecord(value) ? value : {};
      return (
        <fieldset className="efield group" data-field={path}>
          <legend>{fieldLabel(field)}{field.required && <span className="req" aria-hidden="true"> *</span>} <span className="muted">({def?.name ?? slug})</span></legend>
          <GroupMeta field={field} path={path} />
          {def ? <FieldList fields={def.fields} values={v} base={path} onChange={(nv) => onChange({ ...nv, _type: slug })} /> : <p className="error">Unknown component “{slug}”.</p>}
        </fieldset>
      );
    }
    case 'repeater':
      return <Repeater field={field} path={path} value={value} onChange={onChange} />;
    case 'componentPicker':
      return <ComponentPicker field={field} path={path} value={value} onChange={onChange} />;
    default:
      return <Wrapper field={field} path={path}>{(a) => <JsonInput path={path} common={common(a)} value={value} onChange={onChange} />}</Wrapper>;
  }
}

/** The help text and error of a fieldset (repeater, components). */
function GroupMeta({ field, path, extra }: { field: SchemaField; path: string; extra?: string }) {
  const ctx = useContext(FormCtx);
  const help = opt(field.options, 'helpText', isStr);
  const error = ctx.errors[path];
  const id = controlId(path);
  return (
    <>
      {help && <p className="help" id={`${id}-help`}>{help}</p>}
      {extra && <p className="muted small">{extra}</p>}
      {error && <p className="error field-error" id={`${id}-error`}>{error}</p>}
      {/* The focus target of an error on the group itself. */}
      {error && <span className="visually-hidden" tabIndex={-1} id={id} aria-invalid="true" aria-describedby={`${id}-error`}>{fieldLabel(field)}</span>}
    </>
  );
}

type Common = { id: string; 'aria-describedby': string | undefined; 'aria-invalid': true | undefined; readOnly: boolean; required: boolean | undefined };

function NumberInput({ common, value, min, max, step, placeholder, onChange }: { common: Common; value: number | null; min: number | undefined; max: number | undefined; step: number; placeholder: string | undefined; onChange(v: unknown): void }) {
  const [text, setText] = useState(value === null ? '' : String(value));
  useEffect(() => { if ((text === '' ? null : Number(text)) !== value) setText(value === null ? '' : String(value)); }, [value]); // eslint-disable-line react-hooks/exhaustive-deps
  const out = text !== '' && ((min !== undefined && Number(text) < min) || (max !== undefined && Number(text) > max));
  return (
    <>
      <input type="number" inputMode="decimal" {...common} value={text} min={min} max={max} step={step} placeholder={placeholder}
        onChange={(e) => { setText(e.target.value); const n = e.target.valueAsNumber; onChange(e.target.value === '' ? null : Number.isFinite(n) ? n : null); }} />
      {(min !== undefined || max !== undefined) && <p className={out ? 'hint-warn' : 'muted small'}>{min !== undefined && max !== undefined ? `From ${min} to ${max}` : min !== undefined ? `At least ${min}` : `At most ${max}`}{step !== 1 ? `, in steps of ${step}` : ''}</p>}
    </>
  );
}

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO date-time as the value of <input type=datetime-local>, in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export const fromLocalInput = (local: string): string | null => (local ? new Date(local).toISOString() : null);
export const zoneLabel = () => {
  const off = -new Date().getTimezoneOffset();
  return `${timeZone}, UTC${off >= 0 ? '+' : '−'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
};

function DateTimeInput({ common, value, onChange }: { common: Common; value: string | null; onChange(v: unknown): void }) {
  return (
    <>
      <input type="datetime-local" {...common} value={toLocalInput(value)} onChange={(e) => onChange(fromLocalInput(e.target.value))} />
      <p className="muted small">Local time ({zoneLabel()}){value ? `; stored as ${value}` : ''}</p>
    </>
  );
}

const hex6 = /^#[0-9a-fA-F]{6}$/;
function ColorInput({ common, value, onChange, label }: { common: Common; value: string; onChange(v: unknown): void; label: string }) {
  const short = /^#([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])$/.exec(value);
  const pickerValue = hex6.test(value) ? value.toLowerCase() : short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
  return (
    <span className="colorline">
      <input type="color" aria-label={`${label}: colour picker`} value={pickerValue} disabled={common.readOnly} onChange={(e) => onChange(e.target.value)} />
      <input type="text" {...common} value={value} placeholder="#1f5fbf" spellCheck={false} onChange={(e) => onChange(e.target.value || null)} className="mono" />
    </span>
  );
}

function JsonInput({ path, common, value, onChange }: { path: string; common: Common; value: unknown; onChange(v: unknown): void }) {
  const ctx = useContext(FormCtx);
  const [text, setText] = useState(value === undefined || value === null ? '' : JSON.stringify(value, null, 2));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => ctx.setLocalError(path, null), []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <>
      <textarea {...common} className="code" rows={6} spellCheck={false} value={text} aria-invalid={common['aria-invalid'] || (error ? true : undefined)}
        aria-describedby={[error ? `${common.id}-json` : null, common['aria-describedby']].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          if (!t.trim()) { setError(null); ctx.setLocalError(path, null); onChange(null); return; }
          try {
            const parsed: unknown = JSON.parse(t);
            setError(null); ctx.setLocalError(path, null); onChange(parsed);
          } catch (err) {
            const m = `Not valid JSON: ${err instanceof Error ? err.message : 'parse error'}. It is not saved until it parses.`;
            setError(m); ctx.setLocalError(path, m);
          }
        }} />
      {error && <p className="error" id={`${common.id}-json`} role="alert">{error}</p>}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Lists of things: repeater rows, components, references. Move buttons are plain buttons, so the
// keyboard reorders as well as the mouse.

function move<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

function RowButtons({ i, n, what, onMove, onRemove, readOnly, canRemove = true }: { i: number; n: number; what: string; onMove(to: number): void; onRemove(): void; readOnly: boolean; canRemove?: boolean }) {
  if (readOnly) return null;
  return (
    <span className="rowbtns">
      <button type="button" className="small" aria-label={`Move ${what} up`} disabled={i === 0} onClick={() => onMove(i - 1)}>↑</button>
      <button type="button" className="small" aria-label={`Move ${what} down`} disabled={i === n - 1} onClick={() => onMove(i + 1)}>↓</button>
      <button type="button" className="small danger" aria-label={`Remove ${what}`} disabled={!canRemove} onClick={onRemove}>Remove</button>
    </span>
  );
}

function Repeater({ field, path, value, onChange }: { field: SchemaField; path: string; value: unknown; onChange(v: unknown): void }) {
  const ctx = useContext(FormCtx);
  const rows = Array.isArray(value) ? value.map((r) => (isRecord(r) ? r : {})) : [];
  const sub = Array.isArray(field.options?.fields) ? (field.options.fields as SchemaField[]) : []; // cast: the schema's sub-fields, checked by the server
  const min = opt(field.options, 'minItems', isNum);
  const max = opt(field.options, 'maxItems', isNum);
  const label = fieldLabel(field);
  const limits = [min !== undefined ? `at least ${min}` : null, max !== undefined ? `at most ${max}` : null].filter(Boolean).join(', ');
  return (
    <fieldset className="efield group" data-field={path}>
      <legend>{label}{field.required && <span className="req" aria-hidden="true"> *</span>} <span className="muted">({rows.length} {rows.length === 1 ? 'row' : 'rows'}{limits ? `; ${limits}` : ''})</span></legend>
      <GroupMeta field={field} path={path} />
      {rows.length === 0 && <p className="muted">No rows yet.</p>}
      <ol className="rows">
        {rows.map((row, i) => (
          <li key={i} className="row">
            <div className="row-head">
              <strong>Row {i + 1}</strong>
              <RowButtons i={i} n={rows.length} what={`${label} row ${i + 1}`} readOnly={ctx.readOnly} canRemove={min === undefined || rows.length > min}
                onMove={(to) => onChange(move(rows, i, to))} onRemove={() => onChange(rows.filter((_, j) => j !== i))} />
            </div>
            <FieldList fields={sub} values={row} base={`${path}[${i}]`} onChange={(nv) => onChange(rows.map((r, j) => (j === i ? nv : r)))} />
          </li>
        ))}
      </ol>
      {!ctx.readOnly && <button type="button" onClick={() => onChange([...rows, {}])} disabled={max !== undefined && rows.length >= max}>Add {label} row</button>}
    </fieldset>
  );
}

function ComponentPicker({ field, path, value, onChange }: { field: SchemaField; path: string; value: unknown; onChange(v: unknown): void }) {
  const ctx = useContext(FormCtx);
  const items = Array.isArray(value) ? value.map((r) => (isRecord(r) ? r : {})) : [];
  const allowed = Array.isArray(field.options?.allowedComponents) ? field.options.allowedComponents.filter(isStr) : [...ctx.components.keys()];
  const max = opt(field.options, 'maxItems', isNum);
  const [choice, setChoice] = useState(allowed[0] ?? '');
  const label = fieldLabel(field);
  const selectId = useId();
  return (
    <fieldset className="efield group" data-field={path}>
      <legend>{label}{field.required && <span className="req" aria-hidden="true"> *</span>} <span className="muted">({items.length}{max !== undefined ? ` of at most ${max}` : ''})</span></legend>
      <GroupMeta field={field} path={path} />
      {items.length === 0 && <p className="muted">No components yet.</p>}
      <ol className="rows">
        {items.map((item, i) => {
          const slug = str(item._type) ?? '';
          const def = ctx.components.get(slug);
          const { _type: _, ...rest } = item;
          return (
            <li key={i} className="row">
              <div className="row-head">
                <strong>{i + 1}. {def?.name ?? slug}</strong>
                <RowButtons i={i} n={items.length} what={`${def?.name ?? slug} ${i + 1}`} readOnly={ctx.readOnly}
                  onMove={(to) => onChange(move(items, i, to))} onRemove={() => onChange(items.filter((_, j) => j !== i))} />
              </div>
              {def ? <FieldList fields={def.fields} values={rest} base={`${path}[${i}]`} onChange={(nv) => onChange(items.map((r, j) => (j === i ? { _type: slug, ...nv } : r)))} />
                : <p className="error">Unknown component “{slug}”.</p>}
            </li>
          );
        })}
      </ol>
      {!ctx.readOnly && allowed.length > 0 && (
        <div className="addline">
          <label htmlFor={selectId} className="visually-hidden">Component to add to {label}</label>
          <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)}>
            {allowed.map((s) => <option key={s} value={s}>{ctx.components.get(s)?.name ?? s}</option>)}
          </select>
          <button type="button" disabled={!choice || (max !== undefined && items.length >= max)} onClick={() => onChange([...items, { _type: choice }])}>Add to {label}</button>
        </div>
      )}
    </fieldset>
  );
}

// ---------------------------------------------------------------------------------------------
// References: a search-as-you-type picker over the target the field names.

export type RefTarget = 'collectionItem' | 'page' | 'user' | 'blogPost' | 'blogAuthor' | 'blogCategory' | 'blogTag';
interface Option { id: string; label: string; detail: string }

function toOption(target: RefTarget, r: Record<string, unknown>): Option | null {
  const id = str(r.id) ?? str(r.userId);
  if (!id) return null;
  const name = target === 'user' ? str(r.name) || str(r.email) : target === 'blogAuthor' ? [str(r.firstName), str(r.lastName)].filter(Boolean).join(' ') || str(r.slug) : str(r.name) ?? str(r.title);
  return { id, label: name || id, detail: str(r.slug) ?? str(r.email) ?? '' };
}

function searchPath(target: RefTarget, field: SchemaField, q: string): string {
  const p = new URLSearchParams({ limit: '10' });
  if (q && target !== 'user' && target !== 'blogAuthor' && target !== 'blogCategory' && target !== 'blogTag') p.set('search', q);
  switch (target) {
    case 'page': { const t = opt(field.options, 'pageType', isStr); if (t) p.set('pageType', t); return `/pages?${p}`; }
    case 'user': return '/members/directory';
    case 'blogPost': return `/blog/posts?${p}`;
    case 'blogAuthor': p.set('limit', '100'); return `/blog/authors?${p}`;
    case 'blogCategory': p.set('limit', '100'); return `/blog/categories?${p}`;
    case 'blogTag': p.set('limit', '100'); return `/blog/tags?${p}`;
    default: p.set('collection', opt(field.options, 'collectionType', isStr) ?? ''); return `/collection-items?${p}`;
  }
}

function onePath(target: RefTarget, id: string): string | null {
  const e = encodeURIComponent(id);
  switch (target) {
    case 'page': return `/pages/${e}`;
    case 'blogPost': return `/blog/posts/${e}`;
    case 'blogAuthor': return `/blog/authors/${e}`;
    case 'blogCategory': return `/blog/categories/${e}`;
    case 'blogTag': return `/blog/tags/${e}`;
    case 'user': return null;
    default: return `/collection-items/${e}`;
  }
}

export const refTarget = (field: SchemaField): RefTarget => (opt(field.options, 'referenceType', isStr) as RefTarget | undefined) ?? 'collectionItem'; // cast: the schema's referenceType, one of RefTarget

/** The ids of a reference value: `{ _ref }`, a bare id, or a list of them. */
export function refIds(value: unknown): string[] {
  const one = (v: unknown) => (typeof v === 'string' ? v : isRecord(v) ? str(v._ref) ?? str(v.id) : undefined);
  const list = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  return list.map(one).filter((x): x is string => Boolean(x));
}

function RefLabel({ target, id, known }: { target: RefTarget; id: string; known: Map<string, Option> }) {
  const ctx = useContext(FormCtx);
  const path = onePath(target, id);
  const q = useQuery({
    queryKey: [ctx.project, 'ref', target, id],
    queryFn: async () => (target === 'user' ? (await apiData<unknown[]>('/members/directory', { project: ctx.project })).find((m) => isRecord(m) && (m.id === id || m.userId === id)) : apiData<unknown>(path ?? '', { project: ctx.project })),
    enabled: !known.has(id),
    retry: false,
  });
  const opt2 = known.get(id) ?? (isRecord(q.data) ? toOption(target, q.data) : null);
  return <span className="clip" title={opt2?.label ?? id}>{opt2?.label ?? (q.isPending && !known.has(id) ? '…' : q.error ? `${id} (not found)` : id)}</span>;
}

function ReferencePicker({ a, field, value, onChange }: { a: { id: string; describedBy: string | undefined; invalid: boolean }; field: SchemaField; value: unknown; onChange(v: unknown): void }) {
  const ctx = useContext(FormCtx);
  const target = refTarget(field);
  const multiple = field.options?.multiple === true;
  /** Blog posts' author, categories and tags are stored as ids; content references as { _ref, _type }. */
  const plain = target.startsWith('blog') && target !== 'blogPost';
  const ids = refIds(value);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [known] = useState(() => new Map<string, Option>());
  const q = useDebounced(text.trim(), 250);
  const results = useQuery({
    queryKey: [ctx.project, 'refsearch', target, field.options?.collectionType, field.options?.pageType, q],
    queryFn: async () => {
      const answer = await api<Listed<unknown> | { data: unknown[] }>(searchPath(target, field, q), { project: ctx.project });
      const all = (answer.data ?? []).filter(isRecord).map((r) => toOption(target, r)).filter((o): o is Option => o !== null);
      const lq = q.toLowerCase();
      return lq ? all.filter((o) => o.label.toLowerCase().includes(lq) || o.detail.toLowerCase().includes(lq)) : all;
    },
    enabled: open && !ctx.readOnly,
  });
  const options = (results.data ?? []).filter((o) => !ids.includes(o.id));
  const write = (next: string[]) => {
    const shaped = next.map((id) => (plain ? id : { _ref: id, _type: target }));
    onChange(multiple ? shaped : shaped[0] ?? null);
  };
  const pick = (o: Option) => {
    known.set(o.id, o);
    write(multiple ? [...ids, o.id] : [o.id]);
    setText('');
    setOpen(false);
  };
  const listId = `${a.id}-list`;
  const what = { collectionItem: `items of ${str(field.options?.collectionType) ?? 'the collection'}`, page: 'pages', user: 'members', blogPost: 'blog posts', blogAuthor: 'authors', blogCategory: 'categories', blogTag: 'tags' }[target];
  return (
    <div className="refpicker">
      {ids.length > 0 ? (
        <ol className="chips" aria-label={`Chosen for ${fieldLabel(field)}`}>
          {ids.map((id, i) => (
            <li key={id} className="chip">
              <RefLabel target={target} id={id} known={known} />
              {multiple
                ? <RowButtons i={i} n={ids.length} what={`reference ${i + 1}`} readOnly={ctx.readOnly} onMove={(to) => write(move(ids, i, to))} onRemove={() => write(ids.filter((x) => x !== id))} />
                : !ctx.readOnly && <button type="button" className="small danger" aria-label="Clear the reference" onClick={() => write([])}>Clear</button>}
            </li>
          ))}
        </ol>
      ) : <p className="muted small">None chosen.</p>}
      {!ctx.readOnly && (multiple || ids.length === 0) && (
        <div className="combo">
          <input id={a.id} type="text" role="combobox" aria-expanded={open && options.length > 0} aria-controls={listId} aria-autocomplete="list"
            aria-describedby={a.describedBy} aria-invalid={a.invalid || undefined} placeholder={`Search ${what}`}
            aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
            value={text}
            onFocus={() => setOpen(true)}
            onBlur={() => setTimeout(() => setOpen(false), 150)}
            onChange={(e) => { setText(e.target.value); setOpen(true); setActive(0); }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') { e.preventDefault(); setOpen(true); setActive((x) => Math.min(x + 1, options.length - 1)); }
              else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((x) => Math.max(x - 1, 0)); }
              else if (e.key === 'Enter' && open && options[active]) { e.preventDefault(); pick(options[active]); }
              else if (e.key === 'Escape') setOpen(false);
            }} />
          {open && (
            <ul id={listId} role="listbox" className="options" aria-label={`Matching ${what}`}>
              {results.isPending ? <li className="muted" role="presentation">Searching…</li>
                : options.length === 0 ? <li className="muted" role="presentation">Nothing matches</li>
                  : options.map((o, i) => (
                    <li key={o.id} id={`${listId}-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined}
                      onMouseDown={(e) => { e.preventDefault(); pick(o); }}>
                      <span className="clip">{o.label}</span> <span className="muted small clip">{o.detail}</span>
                    </li>
                  ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

type ImagePicked = { src: string; alt?: string } | null;

/**
 * A wysiwyg field whose "Image" button can also choose a picture of the media library: the picker
 * (images only) opens as a modal; the image is inserted with the file's same-origin address
 * (/api/v1/media/<project>/<file>: the admin's CSP allows images from 'self' only) and the media's
 * alt text. Closing the picker inserts nothing.
 */
function RichTextWithLibrary(props: Omit<RichTextFieldProps, 'pickImage'> & { project: string }) {
  const [open, setOpen] = useState(false);
  const resolver = useRef<((image: ImagePicked) => void) | null>(null);
  const finish = (image: ImagePicked) => {
    resolver.current?.(image);
    resolver.current = null;
    setOpen(false);
  };
  useEffect(() => () => { resolver.current?.(null); }, []);
  const pickImage = () => new Promise<ImagePicked>((resolve) => {
    resolver.current?.(null);
    resolver.current = resolve;
    setOpen(true);
  });
  return (
    <>
      <RichTextField {...props} pickImage={pickImage} />
      {open && (
        <Suspense fallback={null}>
          <MediaPickerDialog project={props.project} accept={['image/*']} title={`Insert an image: ${props.label}`}
            onClose={() => finish(null)}
            onPick={(m: Media) => finish({ src: fileUrl(props.project, m), ...(m.altText ? { alt: m.altText } : {}) })} />
        </Suspense>
      )}
    </>
  );
}
