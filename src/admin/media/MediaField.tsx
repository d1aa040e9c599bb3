import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { ApiError, apiData } from '../api';
import { acceptedTypes, errorText, formatSize, refusal, typeLabel, uploadFile, type Media } from './mediaApi';
import { Thumb } from './parts';
import './media.css';

// The image and media fields of the entry editor (and the SEO panel's ogImage, a post's featured
// image): the chosen file's thumbnail and name, "Choose from library" (a modal picker), "Upload"
// (checked against the field's types and size before anything is sent) and "Remove".

const MediaPickerDialog = lazy(() => import('./MediaPickerDialog').then((m) => ({ default: m.MediaPickerDialog })));

export interface MediaFieldProps {
  /** The id of the field's main control: the field's <label htmlFor> points at it. */
  id: string;
  label: string;
  project: string;
  /** The media id (UUID) stored in the field, or null when empty. */
  value: string | null;
  onChange(mediaId: string | null): void;
  /** image: only image/* files may be picked or uploaded. */
  kind: 'image' | 'media';
  allowedMimeTypes?: string[];
  /** Bytes. */
  maxFileSize?: number;
  readOnly?: boolean;
  describedBy?: string;
  invalid?: boolean;
  /** The folder uploads from this field go into (none when left out). */
  uploadFolder?: string;
}

export function MediaField({ id, label, project, value, onChange, kind, allowedMimeTypes, maxFileSize, readOnly, describedBy, invalid, uploadFolder }: MediaFieldProps) {
  const queryClient = useQueryClient();
  const statusId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const accept = acceptedTypes(kind, allowedMimeTypes);
  const current = useQuery({
    queryKey: ['media', project, 'item', value],
    queryFn: () => apiData<Media>(`/media/${encodeURIComponent(value ?? '')}`, { project }),
    enabled: value !== null,
    retry: false,
  });
  const choose = (m: Media) => {
    queryClient.setQueryData(['media', project, 'item', m.id], m);
    onChange(m.id);
  };

  const upload = async (file: File) => {
    const problem = refusal(file, accept, maxFileSize);
    if (problem) { setMessage({ kind: 'error', text: `Not uploaded: ${problem}` }); return; }
    setMessage(null);
    setProgress(0);
    try {
      const m = await uploadFile(project, file, { folder: uploadFolder ?? null, onProgress: setProgress });
      // The server reads the type from the bytes; check what it found, too.
      const stored = refusal({ name: file.name, type: m.mimeType, size: m.size }, accept, maxFileSize);
      if (stored) {
        setMessage({ kind: 'error', text: `Uploaded to the library but not used here: ${stored}` });
      } else {
        choose(m);
        setMessage({ kind: 'info', text: m.deduplicated ? `${m.originalFilename} is already in the library; this upload was added and chosen.` : `Uploaded ${m.originalFilename}.` });
      }
      void queryClient.invalidateQueries({ queryKey: ['media', project, 'list'] });
    } catch (error) {
      setMessage({ kind: 'error', text: `Upload failed: ${errorText(error)}` });
    } finally {
      setProgress(null);
    }
  };

  const inputAccept = accept?.join(',');
  const described = [describedBy, message || progress !== null ? statusId : undefined].filter(Boolean).join(' ') || undefined;
  const missing = current.error instanceof ApiError && current.error.status === 404;
  return (
    <div className={`media-field${invalid ? ' invalid' : ''}`} role="group" aria-label={label}>
      <div className="media-field-current">
        {value === null ? <span className="muted">No {kind === 'image' ? 'image' : 'file'} chosen</span>
          : current.isPending ? <span className="muted" role="status">Loading…</span>
          : current.data ? (
            <>
              <Thumb project={project} media={current.data} size={160} />
              <span className="media-field-name">
                <span className="clip" title={current.data.originalFilename} data-testid="media-field-name">{current.data.originalFilename}</span>
                <span className="muted">{typeLabel(current.data.mimeType)} · {formatSize(current.data.size)}</span>
              </span>
            </>
          ) : <span className="error">{missing ? 'The chosen file is no longer in the library.' : `Could not load the chosen file: ${errorText(current.error)}`}</span>}
      </div>
      {!readOnly && (
        <div className="media-field-actions">
          <button id={id} type="button" onClick={() => setPicking(true)} aria-label={`Choose from library: ${label}`} aria-describedby={described} aria-invalid={invalid || undefined}>Choose from library</button>
          <button type="button" onClick={() => fileInput.current?.click()} aria-label={`Upload: ${label}`} disabled={progress !== null}>Upload</button>
          <input ref={fileInput} type="file" hidden aria-label={`File to upload: ${label}`} {...(inputAccept ? { accept: inputAccept } : {})}
            onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void upload(f); }} />
          {value !== null && <button type="button" onClick={() => { onChange(null); setMessage(null); }} aria-label={`Remove: ${label}`}>Remove</button>}
        </div>
      )}
      {readOnly && <span id={id} className="visually-hidden">{label}</span>}
      {(message || progress !== null) && (
        <p id={statusId} className={message?.kind === 'error' ? 'error' : 'muted'} role={message?.kind === 'error' ? 'alert' : 'status'}>
          {progress !== null ? <>Uploading… <progress max={1} value={progress} aria-label={`Upload for ${label}`} /></> : message?.text}
        </p>
      )}
      {picking && (
        <Suspense fallback={null}>
          <MediaPickerDialog project={project} accept={accept} {...(maxFileSize !== undefined ? { maxFileSize } : {})}
            title={`Choose: ${label}`} onClose={() => setPicking(false)} onPick={(m) => { choose(m); setPicking(false); setMessage(null); }} />
        </Suspense>
      )}
    </div>
  );
}
