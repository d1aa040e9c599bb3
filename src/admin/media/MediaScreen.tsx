import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { api, apiAll, apiData, canWrite, type Listed, type Role } from '../api';
import { EmptyState, ErrorState, Loading, useDebounced } from '../ui';
import { errorText, fileUrl, formatSize, referrersOf, typeLabel, uploadFile, type Media, type MediaFolder } from './mediaApi';
import { Modal, Thumb } from './parts';
import './media.css';

// The media library (/admin/p/:project/media): folders, search, paging, a grid of thumbnails, uploads
// by drag and drop or a file input with progress per file, and a detail dialog to edit, move and delete.

const pageSize = 24;

interface Upload { key: number; name: string; size: number; progress: number; state: 'waiting' | 'uploading' | 'done' | 'duplicate' | 'failed'; message?: string }

/** Uploads files two at a time, reporting each one's progress and outcome. */
function useUploads(project: string, onUploaded: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const next = useRef(0);
  const update = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  const start = useCallback((files: File[], folder: string | null) => {
    const jobs = files.map((file) => ({ file, key: ++next.current }));
    setUploads((list) => [...jobs.map(({ file, key }) => ({ key, name: file.name, size: file.size, progress: 0, state: 'waiting' as const })), ...list]);
    const queue = [...jobs];
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const { file, key } = job;
        update(key, { state: 'uploading' });
        try {
          const media = await uploadFile(project, file, { folder, onProgress: (p) => update(key, { progress: p }) });
          update(key, media.deduplicated
            ? { state: 'duplicate', progress: 1, message: 'Already in the library: the same file was uploaded before (stored once, listed again).' }
            : { state: 'done', progress: 1, message: 'Uploaded' });
        } catch (error) {
          update(key, { state: 'failed', message: errorText(error) });
        }
        onUploaded();
      }
    };
    void Promise.all([worker(), worker()]);
  }, [project, onUploaded]);
  const clearFinished = () => setUploads((list) => list.filter((u) => u.state === 'waiting' || u.state === 'uploading'));
  return { uploads, start, clearFinished };
}

export function MediaScreen({ project, role }: { project: string; role: Role }) {
  const writable = canWrite(role);
  const queryClient = useQueryClient();
  const searchId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  /** undefined: all files; '': files in no folder; else a folder's name. */
  const [folder, setFolder] = useState<string | undefined>(undefined);
  /** Folders made here that hold no file yet (the API creates a folder with its first file). */
  const [newFolders, setNewFolders] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [dragging, setDragging] = useState(false);
  const [opened, setOpened] = useState<Media | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const debounced = useDebounced(search.trim(), 250);
  useEffect(() => setPage(1), [debounced, folder]);

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['media', project] });
    // The navigation's count of the Media section.
    void queryClient.invalidateQueries({ queryKey: [project, 'count', 'media'] });
  }, [queryClient, project]);
  const { uploads, start, clearFinished } = useUploads(project, refresh);

  const params = new URLSearchParams({ page: String(page), limit: String(pageSize) });
  if (folder !== undefined) params.set('folder', folder);
  if (debounced) params.set('search', debounced);
  const list = useQuery({
    queryKey: ['media', project, 'list', folder ?? null, debounced, page],
    queryFn: () => api<Listed<Media>>(`/media?${params.toString()}`, { project }),
    placeholderData: (previous) => previous,
  });
  const folders = useQuery({ queryKey: ['media', project, 'folders'], queryFn: () => apiAll<MediaFolder>('/media/folders', { project }) });
  const allFolders = [...(folders.data ?? []), ...newFolders.filter((n) => !folders.data?.some((f) => f.name === n)).map((name) => ({ name, count: 0 }))]
    .sort((a, b) => a.name.localeCompare(b.name));

  const uploadInto = folder ? folder : null;
  const onFiles = (files: File[]) => {
    if (!writable || files.length === 0) return;
    start(files, uploadInto);
  };
  // Files dropped here never make the browser open them (a viewer's drop does nothing).
  const onDrop = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    setDragging(false);
    onFiles([...e.dataTransfer.files]);
  };
  const onDragOver = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = writable ? 'copy' : 'none';
    if (writable) setDragging(true);
  };

  const total = list.data?.pagination?.total ?? 0;
  const totalPages = Math.max(1, list.data?.pagination?.totalPages ?? 1);
  const items = list.data?.data ?? [];
  const where = folder === undefined ? 'All files' : folder === '' ? 'Not in a folder' : folder;

  return (
    <section aria-labelledby="media-title" className={`media-screen${dragging ? ' dragging' : ''}`}
      onDragOver={onDragOver} onDragLeave={(e) => { if (e.currentTarget === e.target) setDragging(false); }} onDrop={onDrop}>
      <div className="screen-head">
        <h1 id="media-title">Media library</h1>
        <span className="muted">{list.data ? `${total} ${total === 1 ? 'file' : 'files'}` : ''}</span>
      </div>
      {folder !== undefined && (
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <ol>
            <li><button type="button" className="linklike" onClick={() => setFolder(undefined)}>Media library</button></li>
            <li><span aria-current="location" className="clip" title={where}>{where}</span></li>
          </ol>
        </nav>
      )}

      <div className="toolbar">
        <div className="field">
          <label htmlFor={searchId}>Search by file name</label>
          <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="e.g. cover" />
        </div>
        {writable && (
          <>
            <button type="button" className="primary" onClick={() => fileInput.current?.click()}>Upload files</button>
            <input ref={fileInput} type="file" multiple hidden aria-label="Files to upload"
              onChange={(e) => { onFiles([...(e.target.files ?? [])]); e.target.value = ''; }} />
            <NewFolder existing={allFolders.map((f) => f.name)} onCreate={(name) => { setNewFolders((l) => [...l, name]); setFolder(name); }} />
          </>
        )}
      </div>

      <FolderBar folders={allFolders} loading={folders.isPending} current={folder} onOpen={setFolder} />
      {folder && writable && (
        <FolderActions key={folder} project={project} name={folder} empty={!folders.data?.some((f) => f.name === folder)}
          onRenamed={(to) => { setNewFolders((l) => l.map((n) => (n === folder ? to : n))); setFolder(to); setNotice(`Folder renamed to “${to}”.`); refresh(); }} />
      )}
      {notice && <p className="notice" role="status">{notice} <button type="button" className="linklike" onClick={() => setNotice(null)}>Dismiss</button></p>}

      {writable && (
        <p className={`dropzone${dragging ? ' active' : ''}`}>
          {dragging ? 'Drop the files to upload them' : 'Drag files here to upload them'}{uploadInto ? ` into “${uploadInto}”` : ''}, or use “Upload files”.
        </p>
      )}
      {uploads.length > 0 && <UploadList uploads={uploads} onClear={clearFinished} />}

      {list.isPending ? <Loading label="Loading media…" />
        : list.error ? <ErrorState error={list.error} retry={() => void list.refetch()} />
        : items.length === 0 ? (
          <EmptyState title={debounced ? 'No files match' : folder ? 'This folder is empty' : 'No media yet'}>
            {debounced ? `No file name contains “${debounced}”.` : writable ? 'Drag files here or choose “Upload files”.' : 'Nothing has been uploaded yet.'}
          </EmptyState>
        ) : (
          <ul className="media-grid" aria-label={`Files: ${where}`}>
            {items.map((m) => (
              <li key={m.id}>
                <button type="button" className="media-card" onClick={() => setOpened(m)} aria-haspopup="dialog">
                  <Thumb project={project} media={m} />
                  <span className="media-name clip" title={m.originalFilename}>{m.originalFilename}</span>
                  <span className="media-meta muted">{typeLabel(m.mimeType)} · {formatSize(m.size)}{m.width && m.height ? ` · ${m.width}×${m.height}` : ''}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      {totalPages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>Previous</button>
          <span>Page {page} of {totalPages}</span>
          <button type="button" disabled={page >= totalPages} onClick={() => setPage((p) => p + 1)}>Next</button>
        </nav>
      )}
      {opened && (
        <MediaDetail project={project} media={opened} writable={writable} folders={allFolders.map((f) => f.name)}
          onClose={() => setOpened(null)}
          onChanged={(m) => { setOpened(m); refresh(); }}
          onDeleted={(name) => { setOpened(null); setNotice(`Deleted “${name}”.`); refresh(); }} />
      )}
    </section>
  );
}

function NewFolder({ existing, onCreate }: { existing: string[]; onCreate(name: string): void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  if (!open) return <button type="button" onClick={() => setOpen(true)}>New folder</button>;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    const problem = folderProblem(n, existing);
    if (problem) { setError(problem); return; }
    onCreate(n);
    setOpen(false);
    setName('');
    setError(null);
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>Folder name</label>
        <input id={id} value={name} autoFocus onChange={(e) => setName(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
        {error && <span id={`${id}-error`} className="error">{error}</span>}
      </div>
      <button type="submit">Create</button>
      <button type="button" onClick={() => { setOpen(false); setError(null); }}>Cancel</button>
    </form>
  );
}

/** The folder name rules of the API (1–100 characters, no / \ or control characters, not . or ..). */
function folderProblem(name: string, existing: string[]): string | null {
  if (!name) return 'Enter a name.';
  if (name.length > 100) return 'At most 100 characters.';
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f]/.test(name)) return 'No “/”, “\\” or control characters.';
  if (name === '.' || name === '..') return 'Not “.” or “..”.';
  if (existing.includes(name)) return 'A folder with this name exists.';
  return null;
}

function FolderBar({ folders, loading, current, onOpen }: { folders: MediaFolder[]; loading: boolean; current: string | undefined; onOpen(f: string | undefined): void }) {
  return (
    <nav className="folderbar" aria-label="Folders">
      <ul>
        <li><button type="button" aria-current={current === undefined ? 'true' : undefined} onClick={() => onOpen(undefined)}>All files</button></li>
        <li><button type="button" aria-current={current === '' ? 'true' : undefined} onClick={() => onOpen('')}>Not in a folder</button></li>
        {folders.map((f) => (
          <li key={f.name}>
            <button type="button" aria-current={current === f.name ? 'true' : undefined} onClick={() => onOpen(f.name)} title={f.name}>
              <span className="clip folder-name">{f.name}</span> <span className="count" aria-label={`${f.count} ${f.count === 1 ? 'file' : 'files'}`}>{f.count}</span>
            </button>
          </li>
        ))}
        {loading && <li className="muted">Loading folders…</li>}
      </ul>
    </nav>
  );
}

function FolderActions({ project, name, empty, onRenamed }: { project: string; name: string; empty: boolean; onRenamed(to: string): void }) {
  const [editing, setEditing] = useState(false);
  const [to, setTo] = useState(name);
  const id = useId();
  const rename = useMutation({
    mutationFn: () => api(`/media/folders/${encodeURIComponent(name)}`, { method: 'PUT', body: { name: to.trim() }, project }),
    onSuccess: () => { setEditing(false); onRenamed(to.trim()); },
  });
  if (empty) return <p className="muted folder-note">This folder is new: it is kept once a file is uploaded or moved into it.</p>;
  if (!editing) {
    return (
      <p className="folder-note">
        <button type="button" onClick={() => setEditing(true)}>Rename folder</button>{' '}
        <span className="muted">A folder goes away on its own when it has no files left and is not opened here; the API has no folder delete.</span>
      </p>
    );
  }
  return (
    <form className="inline-form" onSubmit={(e) => { e.preventDefault(); if (to.trim() === name) { setEditing(false); return; } rename.mutate(); }}>
      <div className="field">
        <label htmlFor={id}>New name of “{name}”</label>
        <input id={id} value={to} autoFocus onChange={(e) => setTo(e.target.value)} />
        {rename.error && <span className="error" role="alert">{errorText(rename.error)}</span>}
      </div>
      <button type="submit" className="primary" disabled={rename.isPending || !to.trim()}>Rename</button>
      <button type="button" onClick={() => setEditing(false)}>Cancel</button>
    </form>
  );
}

function UploadList({ uploads, onClear }: { uploads: Upload[]; onClear(): void }) {
  const busy = uploads.filter((u) => u.state === 'waiting' || u.state === 'uploading').length;
  return (
    <section className="card uploads" aria-labelledby="uploads-title">
      <div className="results-head">
        <h2 id="uploads-title">Uploads</h2>
        <span className="muted" role="status">{busy > 0 ? `Uploading ${busy} of ${uploads.length}…` : `${uploads.length} finished`}</span>
        {busy < uploads.length && <button type="button" onClick={onClear}>Clear finished</button>}
      </div>
      <ul>
        {uploads.map((u) => (
          <li key={u.key} className={`upload ${u.state}`} data-testid="upload">
            <span className="clip upload-name" title={u.name}>{u.name}</span>
            <span className="muted upload-size">{formatSize(u.size)}</span>
            <progress max={1} value={u.progress} aria-label={`Upload of ${u.name}`} />
            <span className="upload-state">
              {u.state === 'waiting' ? 'Waiting' : u.state === 'uploading' ? `${Math.round(u.progress * 100)}%` : u.message}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function MediaDetail({ project, media, writable, folders, onClose, onChanged, onDeleted }: {
  project: string; media: Media; writable: boolean; folders: string[]; onClose(): void; onChanged(m: Media): void; onDeleted(name: string): void;
}) {
  const nameId = useId();
  const altId = useId();
  const folderId = useId();
  const newFolderId = useId();
  const [name, setName] = useState(media.originalFilename);
  const [alt, setAlt] = useState(media.altText ?? '');
  const [target, setTarget] = useState(media.folder ?? '');
  const [newFolder, setNewFolder] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const save = useMutation({
    mutationFn: () => apiData<Media>(`/media/${media.id}`, { method: 'PUT', body: { filename: name.trim(), altText: alt.trim() ? alt : null }, project }),
    onSuccess: (m) => { setSaved('Saved.'); onChanged(m); },
  });
  const move = useMutation({
    mutationFn: (to: string | null) => apiData<Media>(`/media/${media.id}/move`, { method: 'POST', body: { folder: to }, project }),
    onSuccess: (m) => { setSaved(m.folder ? `Moved to “${m.folder}”.` : 'Moved out of its folder.'); setNewFolder(''); setTarget(m.folder ?? ''); onChanged(m); },
  });
  const remove = useMutation({
    mutationFn: (force: boolean) => api(`/media/${media.id}${force ? '?force=true' : ''}`, { method: 'DELETE', project }),
    onSuccess: () => onDeleted(media.originalFilename),
  });
  const referrers = referrersOf(remove.error);
  const moveTo = target === '__new__' ? newFolder.trim() : target;

  return (
    <Modal title={media.originalFilename} onClose={onClose} labelId={`${nameId}-title`} className="media-detail">
      <div className="detail-body">
        <div className="detail-preview">
          <Thumb project={project} media={media} size={480} fit="inside" />
          <dl className="facts">
            <div><dt>Type</dt><dd>{media.mimeType}</dd></div>
            <div><dt>Size</dt><dd>{formatSize(media.size)}</dd></div>
            {media.width && media.height ? <div><dt>Dimensions</dt><dd>{media.width}×{media.height}</dd></div> : null}
            <div><dt>Folder</dt><dd>{media.folder ?? 'None'}</dd></div>
            <div><dt>Uploaded</dt><dd>{new Date(media.createdAt).toLocaleString()}</dd></div>
          </dl>
          <p><a href={fileUrl(project, media)} target="_blank" rel="noopener">Open the original</a></p>
        </div>
        <div className="detail-form">
          {writable ? (
            <form onSubmit={(e) => { e.preventDefault(); setSaved(null); save.mutate(); }}>
              <div className="field">
                <label htmlFor={nameId}>File name</label>
                <input id={nameId} value={name} required maxLength={1024} onChange={(e) => setName(e.target.value)} />
              </div>
              <div className="field">
                <label htmlFor={altId}>Alt text</label>
                <textarea id={altId} value={alt} maxLength={1000} rows={3} onChange={(e) => setAlt(e.target.value)} aria-describedby={`${altId}-help`} />
                <span id={`${altId}-help`} className="muted">Describes the image for people who cannot see it. Leave empty for decorative images.</span>
              </div>
              <button type="submit" className="primary" disabled={save.isPending || !name.trim()}>{save.isPending ? 'Saving…' : 'Save'}</button>
              {save.error && <p className="error" role="alert">{errorText(save.error)}</p>}
            </form>
          ) : (
            <dl className="facts">
              <div><dt>File name</dt><dd>{media.originalFilename}</dd></div>
              <div><dt>Alt text</dt><dd>{media.altText ?? <span className="muted">None</span>}</dd></div>
            </dl>
          )}
          {saved && <p className="ok-text" role="status">{saved}</p>}
          {writable && (
            <form className="move-form" onSubmit={(e) => { e.preventDefault(); setSaved(null); move.mutate(moveTo || null); }}>
              <div className="field">
                <label htmlFor={folderId}>Move to folder</label>
                <select id={folderId} value={target} onChange={(e) => setTarget(e.target.value)}>
                  <option value="">No folder</option>
                  {folders.map((f) => <option key={f} value={f}>{f}</option>)}
                  <option value="__new__">New folder…</option>
                </select>
              </div>
              {target === '__new__' && (
                <div className="field">
                  <label htmlFor={newFolderId}>New folder name</label>
                  <input id={newFolderId} value={newFolder} onChange={(e) => setNewFolder(e.target.value)} />
                </div>
              )}
              <button type="submit" disabled={move.isPending || (target === '__new__' && !newFolder.trim()) || (moveTo || null) === media.folder}>Move</button>
              {move.error && <p className="error" role="alert">{errorText(move.error)}</p>}
            </form>
          )}
          {writable && (
            <div className="delete-zone">
              {!confirming ? (
                <button type="button" className="danger" onClick={() => setConfirming(true)}>Delete</button>
              ) : (
                <div role="group" aria-label="Confirm delete">
                  <p>Delete “{media.originalFilename}”? This cannot be undone.</p>
                  <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(false)}>Yes, delete</button>{' '}
                  <button type="button" onClick={() => { setConfirming(false); remove.reset(); }}>Cancel</button>
                </div>
              )}
              {referrers && (
                <div className="refusal" role="alert">
                  <p><strong>Not deleted: content uses this file.</strong> {referrers.length === 0 ? '' : 'It is referred to by:'}</p>
                  <ul>{referrers.map((r) => <li key={`${r.type}:${r.id}`}>{referrerLabel(r.type)} <code>{r.slug ?? r.id}</code></li>)}</ul>
                  <p>Deleting anyway leaves those fields empty (resolved values and featured images become null).</p>
                  <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate(true)}>Delete anyway</button>
                </div>
              )}
              {remove.error && !referrers && <p className="error" role="alert">{errorText(remove.error)}</p>}
            </div>
          )}
        </div>
      </div>
    </Modal>
  );
}

function referrerLabel(type: string): string {
  return ({ page: 'Page', collectionItem: 'Collection item', blogPost: 'Blog post', blogAuthor: 'Blog author' } as Record<string, string>)[type] ?? type;
}
