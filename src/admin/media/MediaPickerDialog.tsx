import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { api, type Listed } from '../api';
import { EmptyState, ErrorState, Loading, useDebounced } from '../ui';
import { formatSize, typeAllowed, typeFilter, typeLabel, type Media } from './mediaApi';
import { Modal, Thumb } from './parts';
import './media.css';

const pageSize = 18;

export interface MediaPickerDialogProps {
  project: string;
  /** MIME types or families (`image/*`) that may be picked; undefined: any. */
  accept?: string[];
  /** Bytes; larger files are shown but cannot be picked. */
  maxFileSize?: number;
  onPick(media: Media): void;
  onClose(): void;
  title?: string;
}

/**
 * Choose a file of the media library: a modal dialog (focus stays inside, Escape closes) with a
 * search by file name and a grid of thumbnails; Enter or a click picks. Only accepted types are
 * listed when the accepted types are one type or family (the list route filters); otherwise files of
 * other types are shown disabled with the reason. Used by the media field and, later, the wysiwyg
 * editor's "insert image".
 */
export function MediaPickerDialog({ project, accept, maxFileSize, onPick, onClose, title = 'Choose from the media library' }: MediaPickerDialogProps) {
  const searchId = useId();
  const titleId = useId();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const debounced = useDebounced(search.trim(), 250);
  useEffect(() => setPage(1), [debounced]);
  const type = typeFilter(accept);
  const params = new URLSearchParams({ page: String(page), limit: String(pageSize) });
  if (debounced) params.set('search', debounced);
  if (type) params.set('type', type);
  const list = useQuery({
    queryKey: ['media', project, 'picker', debounced, type ?? null, page],
    queryFn: () => api<Listed<Media>>(`/media?${params.toString()}`, { project }),
    placeholderData: (previous) => previous,
  });
  const items = list.data?.data ?? [];
  const totalPages = Math.max(1, list.data?.pagination?.totalPages ?? 1);
  const why = (m: Media): string | null => {
    if (!typeAllowed(m.mimeType, accept)) return `${m.mimeType} is not allowed here`;
    if (maxFileSize !== undefined && m.size > maxFileSize) return `larger than ${formatSize(maxFileSize)}`;
    return null;
  };

  return (
    <Modal title={title} onClose={onClose} labelId={titleId} className="media-picker">
      <div className="field">
        <label htmlFor={searchId}>Search by file name</label>
        <input id={searchId} type="search" value={search} autoFocus onChange={(e) => setSearch(e.target.value)} />
      </div>
      {accept && <p className="muted picker-note">Allowed: {accept.join(', ')}{maxFileSize !== undefined ? `; at most ${formatSize(maxFileSize)}` : ''}.</p>}
      {list.isPending ? <Loading label="Loading media…" />
        : list.error ? <ErrorState error={list.error} retry={() => void list.refetch()} />
        : items.length === 0 ? <EmptyState title={debounced ? 'No files match' : 'No files yet'}>{debounced ? `No file name contains “${debounced}”.` : 'Upload a file first.'}</EmptyState>
        : (
          <ul className="media-grid picker-grid" aria-label="Files">
            {items.map((m) => {
              const reason = why(m);
              return (
                <li key={m.id}>
                  <button type="button" className="media-card" disabled={reason !== null} onClick={() => onPick(m)}
                    aria-describedby={reason ? `${titleId}-${m.id}` : undefined}>
                    <Thumb project={project} media={m} />
                    <span className="media-name clip" title={m.originalFilename}>{m.originalFilename}</span>
                    <span className="media-meta muted">{typeLabel(m.mimeType)} · {formatSize(m.size)}</span>
                    {reason && <span id={`${titleId}-${m.id}`} className="media-meta error">Cannot be used: {reason}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      {totalPages > 1 && (
        <nav className="pager" aria-label="Pages of files">
          <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>Previous</button>
          <span>Page {page} of {totalPages}</span>
          <button type="button" disabled={page >= totalPages} onClick={() => setPage((p) => p + 1)}>Next</button>
        </nav>
      )}
    </Modal>
  );
}
