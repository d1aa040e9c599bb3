import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, apiData, canWrite, type Me } from '../api';
import { MediaField } from '../media/MediaField';
import { navigate } from '../router';
import type { Section } from '../sections';
import { ErrorState, Link, Loading, str } from '../ui';
import './editor.css';

// Blog authors, categories and tags: a small form each (create, edit, delete). Viewers read it.

interface TermField { key: string; label: string; area?: boolean; required?: boolean; media?: boolean }
const termFields: Record<string, TermField[]> = {
  'blog:authors': [
    { key: 'firstName', label: 'First name' }, { key: 'lastName', label: 'Last name' }, { key: 'slug', label: 'Slug', required: true },
    { key: 'title', label: 'Title' }, { key: 'email', label: 'Email' }, { key: 'bio', label: 'Bio', area: true },
    { key: 'profileImageId', label: 'Profile image', media: true },
  ],
  'blog:categories': [{ key: 'name', label: 'Name', required: true }, { key: 'slug', label: 'Slug' }],
  'blog:tags': [{ key: 'name', label: 'Name', required: true }, { key: 'slug', label: 'Slug' }],
};

export function TermScreen({ project, section, id }: { project: string; section: Section; id: string }) {
  const creating = id === 'new';
  const path = `${section.list.path}/${encodeURIComponent(id)}`;
  const entry = useQuery({ queryKey: [project, 'entry', section.key, id], queryFn: () => apiData<Record<string, unknown>>(path, { project }), enabled: !creating });
  const me = useQuery({ queryKey: ['me'], queryFn: () => apiData<Me>('/auth/me'), retry: false, staleTime: 60_000 });
  const role = me.data?.memberships.find((m) => m.project.slug === project)?.role;
  const back = <p><Link to={section.to}>← {section.label}</Link></p>;
  if (entry.error) return <>{back}<ErrorState error={entry.error} retry={() => void entry.refetch()} /></>;
  if (!creating && entry.isPending) return <>{back}<Loading label="Loading…" /></>;
  return <TermForm key={id} project={project} section={section} initial={creating ? null : entry.data ?? null} writable={canWrite(role)} back={back} />;
}

function TermForm({ project, section, initial, writable, back }: { project: string; section: Section; initial: Record<string, unknown> | null; writable: boolean; back: React.ReactNode }) {
  const queryClient = useQueryClient();
  const fields = termFields[section.key] ?? [];
  const [values, setValues] = useState<Record<string, string | null>>(() => Object.fromEntries(fields.map((f) => {
    const v = initial?.[f.key] ?? (f.key === 'profileImageId' && initial && typeof initial.profileImage === 'object' && initial.profileImage !== null ? (initial.profileImage as { id?: string }).id : undefined); // cast: the resolved media object
    return [f.key, str(v) ?? (f.media ? null : '')];
  })));
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirm, setConfirm] = useState(false);
  const readOnly = !writable;
  const singular = section.key === 'blog:authors' ? 'author' : section.key === 'blog:categories' ? 'category' : 'tag';
  const title = initial ? (section.key === 'blog:authors' ? [str(initial.firstName), str(initial.lastName)].filter(Boolean).join(' ') || str(initial.slug) : str(initial.name)) ?? '' : `New ${singular}`;

  const refuse = (err: unknown) => {
    if (err instanceof ApiError && Array.isArray(err.details)) {
      setErrors(Object.fromEntries(err.details.filter((d): d is { path: string; message: string } => typeof d === 'object' && d !== null && 'path' in d).map((d) => [String(d.path), String(d.message)])));
    }
    setMessage({ text: err instanceof ApiError ? err.message : 'The server could not be reached.', error: true });
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    for (const f of fields) {
      const v = values[f.key];
      if (f.media || f.key === 'email') body[f.key] = v || null;
      else if (v !== '' || initial) body[f.key] = v ?? '';
    }
    if (!initial && !body.slug) delete body.slug;
    try {
      const saved = await apiData<Record<string, unknown>>(initial ? `${section.list.path}/${encodeURIComponent(String(initial.id))}` : section.list.path, { method: initial ? 'PUT' : 'POST', body, project });
      setErrors({});
      void queryClient.invalidateQueries({ queryKey: [project] });
      if (!initial) navigate(`${section.to}/${encodeURIComponent(String(saved.id))}`, { replace: true });
      else setMessage({ text: `Saved at ${new Date().toLocaleTimeString()}` });
    } catch (err) { refuse(err); }
  };
  const remove = async () => {
    try {
      await api(`${section.list.path}/${encodeURIComponent(String(initial?.id))}`, { method: 'DELETE', body: {}, project });
      void queryClient.invalidateQueries({ queryKey: [project] });
      navigate(section.to);
    } catch (err) { refuse(err); setConfirm(false); }
  };
  return (
    <article className="editor" aria-labelledby="entry-title">
      {back}
      <div className="editor-head"><h1 id="entry-title" className="clip" title={title}>{title}</h1>{readOnly && <span className="badge">read-only</span>}</div>
      {message && <p className={`editor-status ${message.error ? 'error' : 'ok'}`} role={message.error ? 'alert' : 'status'}>{message.text}</p>}
      <form className="editor-form card term-form" onSubmit={(e) => void submit(e)} noValidate aria-label={`${singular} form`}>
        {fields.map((f) => {
          const id = `t-${f.key}`;
          const err = errors[f.key];
          return (
            <div key={f.key} className={`efield${err ? ' has-error' : ''}`} data-field={f.key}>
              <div className="efield-head"><label htmlFor={id}>{f.label}{f.required && <span className="req" aria-hidden="true"> *</span>}</label></div>
              {f.media
                ? <MediaField id={id} label={f.label} project={project} kind="image" value={values[f.key] ?? null} readOnly={readOnly} onChange={(v) => setValues({ ...values, [f.key]: v })} />
                : f.area
                  ? <textarea id={id} rows={4} value={values[f.key] ?? ''} readOnly={readOnly} aria-invalid={err ? true : undefined} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })} />
                  : <input id={id} type="text" value={values[f.key] ?? ''} readOnly={readOnly} required={f.required} aria-invalid={err ? true : undefined} aria-describedby={err ? `${id}-error` : undefined} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })} />}
              {err && <p className="error field-error" id={`${id}-error`}>{err}</p>}
            </div>
          );
        })}
        {writable && (
          <div className="btnrow">
            <button type="submit" className="primary">{initial ? 'Save' : `Create ${singular}`}</button>
            {initial && (confirm
              ? <><button type="button" className="danger" onClick={() => void remove()}>Confirm delete</button><button type="button" onClick={() => setConfirm(false)}>Cancel</button></>
              : <button type="button" className="danger" onClick={() => setConfirm(true)}>Delete</button>)}
          </div>
        )}
      </form>
    </article>
  );
}
