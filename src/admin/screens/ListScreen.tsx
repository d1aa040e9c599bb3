import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { api, apiData, canWrite, type BulkResult, type Listed, type Role } from '../api';
import { navigate, useLocation } from '../router';
import { listUrl, type Section } from '../sections';
import { EmptyState, ErrorState, Link, Loading, str, useDebounced } from '../ui';

// Lists: paging, sorting, search and status (in the URL, so a reload or a return keeps them),
// selection and bulk actions.

const sortChoices = [
  { value: '-updatedAt', label: 'Recently updated' },
  { value: '-createdAt', label: 'Recently created' },
  { value: 'name', label: 'Name A–Z' },
  { value: '-name', label: 'Name Z–A' },
  { value: 'slug', label: 'Slug A–Z' },
];
const postSortChoices = [
  { value: '-updatedAt', label: 'Recently updated' },
  { value: '-createdAt', label: 'Recently created' },
  { value: 'title', label: 'Title A–Z' },
  { value: '-title', label: 'Title Z–A' },
];
const pageSize = 20;
const newLabel: Record<string, string> = { 'blog:authors': 'New author', 'blog:categories': 'New category', 'blog:tags': 'New tag' };

interface Row { id: string; name: string; slug: string; status?: string; publishAt?: string | null; updatedAt?: string; raw: Record<string, unknown> }

/** An author's name: first and last. */
function personName(r: Record<string, unknown>): string | undefined {
  const name = [str(r.firstName), str(r.lastName)].filter(Boolean).join(' ');
  return name || undefined;
}

function toRow(item: unknown): Row | null {
  if (typeof item !== 'object' || item === null) return null;
  const r: Record<string, unknown> = { ...item };
  const id = str(r.id);
  if (!id) return null;
  return {
    id,
    name: str(r.name) || personName(r) || str(r.title) || str(r.originalFilename) || str(r.filename) || id,
    slug: str(r.slug) ?? str(r.mimeType) ?? '',
    ...(str(r.status) ? { status: str(r.status) } : {}),
    publishAt: str(r.publishAt) ?? null,
    ...(str(r.updatedAt) ? { updatedAt: str(r.updatedAt) } : {}),
    raw: r,
  };
}

function statusOf(row: Row): string | undefined {
  if (row.publishAt && row.status !== 'published') return 'scheduled';
  return row.status;
}


function setQuery(changes: Record<string, string | null>) {
  const params = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') params.delete(k);
    else params.set(k, v);
  }
  const qs = params.toString();
  navigate(window.location.pathname.slice('/admin'.length) + (qs ? `?${qs}` : ''), { replace: true });
}

export function ListScreen({ project, role, section }: { project: string; role: Role; section: Section }) {
  const queryClient = useQueryClient();
  const { query } = useLocation();
  const page = Math.max(1, Number(query.get('page')) || 1);
  const sortList = section.kind === 'post' ? postSortChoices : sortChoices;
  const sortable = section.kind === 'page' || section.kind === 'item' || section.kind === 'post';
  const searchable = section.kind !== 'term';
  const filterable = section.kind === 'page' || section.kind === 'item' || section.kind === 'post';
  const sort = sortable ? (query.get('sort') ?? sortList[0]!.value) : null;
  const status = filterable ? (query.get('status') ?? '') : '';
  const [searchText, setSearchText] = useState(query.get('q') ?? '');
  const search = useDebounced(searchText.trim(), 300);
  useEffect(() => {
    if ((query.get('q') ?? '') !== search) setQuery({ q: search || null, page: null });
  }, [search, query]);

  const params: Record<string, string> = { ...section.list.params, page: String(page), limit: String(pageSize) };
  if (sort) params.sort = sort;
  if (search && searchable) params.search = search;
  if (status) params.status = status;
  const list = useQuery({
    queryKey: [project, 'list', section.key, params],
    queryFn: () => api<Listed<unknown>>(listUrl(section.list.path, params), { project }),
    placeholderData: (previous) => previous,
  });
  const rows = (list.data?.data ?? []).map(toRow).filter((r): r is Row => r !== null);
  const total = list.data?.pagination?.total ?? rows.length;
  const totalPages = Math.max(1, list.data?.pagination?.totalPages ?? 1);

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [results, setResults] = useState<{ action: string; items: Array<BulkResult & { name: string }> } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const bulkBase = section.kind === 'page' ? '/pages' : section.kind === 'item' ? '/collection-items' : null;
  const writer = canWrite(role) && bulkBase !== null;
  const names = new Map(rows.map((r) => [r.id, r.name]));

  const bulk = useMutation({
    mutationFn: async (action: 'publish' | 'unpublish' | 'delete') => {
      const ids = [...selected];
      const answer = await apiData<BulkResult[]>(`${bulkBase}/bulk-${action}`, { method: 'POST', body: { ids }, project });
      return { action, items: answer.map((r) => ({ ...r, name: names.get(r.id) ?? r.id })) };
    },
    onSuccess: async (r) => {
      setResults(r);
      setSelected(new Set());
      setConfirmDelete(false);
      await queryClient.invalidateQueries({ queryKey: [project] });
    },
  });

  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: string) => setSelected((s) => {
    const n = new Set(s);
    if (n.has(id)) n.delete(id); else n.add(id);
    return n;
  });
  const entryLink = (r: Row) => section.kind !== 'media' ? `${section.to}/${encodeURIComponent(r.id)}` : null;
  const headingId = useId();

  return (
    <section aria-labelledby={headingId}>
      <div className="screen-head">
        <h1 id={headingId} className="clip" title={section.label}>{section.label}</h1>
        <span className="muted">{list.data ? `${total.toLocaleString('en')} ${total === 1 ? 'entry' : 'entries'}` : ''}</span>
        {canWrite(role) && section.kind !== 'media' && (
          <Link to={`${section.to}/new`} className="button primary new-entry">{newLabel[section.key] ?? (section.kind === 'page' ? 'New page' : section.kind === 'item' ? 'New item' : 'New post')}</Link>
        )}
      </div>
      <div className="toolbar" role="search">
        {searchable && (
          <span className="field">
            <label htmlFor="list-search">Search</label>
            <input id="list-search" type="search" placeholder={section.kind === 'media' ? 'File name' : 'Name or slug'} value={searchText} onChange={(e) => setSearchText(e.target.value)} />
          </span>
        )}
        {filterable && (
          <span className="field">
            <label htmlFor="list-status">Status</label>
            <select id="list-status" value={status} onChange={(e) => setQuery({ status: e.target.value || null, page: null })}>
              <option value="">Any</option>
              <option value="draft">Draft</option>
              <option value="published">Published</option>
              {section.kind !== 'post' && <option value="scheduled">Scheduled</option>}
            </select>
          </span>
        )}
        {sortable && (
          <span className="field">
            <label htmlFor="list-sort">Sort</label>
            <select id="list-sort" value={sort ?? ''} onChange={(e) => setQuery({ sort: e.target.value, page: null })}>
              {sortList.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
            </select>
          </span>
        )}
      </div>

      {writer && selected.size > 0 && (
        <div className="bulkbar" role="region" aria-label="Bulk actions">
          <span>{selected.size} selected</span>
          <button type="button" onClick={() => bulk.mutate('publish')} disabled={bulk.isPending}>Publish</button>
          <button type="button" onClick={() => bulk.mutate('unpublish')} disabled={bulk.isPending}>Unpublish</button>
          {confirmDelete
            ? <button type="button" className="danger" onClick={() => bulk.mutate('delete')} disabled={bulk.isPending}>Confirm delete of {selected.size}</button>
            : <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>Delete</button>}
          <button type="button" onClick={() => { setSelected(new Set()); setConfirmDelete(false); }}>Clear selection</button>
        </div>
      )}
      {bulk.error && <p className="error" role="alert">{bulk.error.message}</p>}
      {results && <BulkResults results={results} onClose={() => setResults(null)} />}

      {list.isPending ? <Loading label="Loading entries…" />
        : list.error ? <ErrorState error={list.error} retry={() => void list.refetch()} />
          : rows.length === 0 ? (
            <EmptyState title={search || status ? 'Nothing matches' : 'Nothing here yet'}>
              {search || status ? 'No entry matches this search or filter.' : section.kind === 'media' ? 'The media library is empty.' : 'There are no entries of this kind yet.'}
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="list" aria-busy={list.isFetching}>
                <thead>
                  <tr>
                    {writer && (
                      <th scope="col" className="check">
                        <input type="checkbox" aria-label="Select all on this page" checked={allOnPage}
                          onChange={() => setSelected(allOnPage ? new Set() : new Set(rows.map((r) => r.id)))} />
                      </th>
                    )}
                    <th scope="col">{section.kind === 'media' ? 'File' : 'Name'}</th>
                    <th scope="col" className="col-slug">{section.kind === 'media' ? 'Type' : 'Slug'}</th>
                    {section.kind !== 'term' && section.kind !== 'media' && <th scope="col">Status</th>}
                    <th scope="col" className="col-updated">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => {
                    const to = entryLink(r);
                    const st = statusOf(r);
                    return (
                      <tr key={r.id} className={selected.has(r.id) ? 'selected' : undefined}>
                        {writer && <td className="check"><input type="checkbox" aria-label={`Select ${r.name}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} /></td>}
                        <td className="clip name" title={r.name}>{to ? <Link to={to}>{r.name}</Link> : r.name}</td>
                        <td className="clip col-slug" title={r.slug}>{r.slug}</td>
                        {section.kind !== 'term' && section.kind !== 'media' && <td>{st && <span className={`badge ${st}`}>{st}</span>}</td>}
                        <td className="col-updated muted">{r.updatedAt ? <time dateTime={r.updatedAt} title={r.updatedAt}>{new Date(r.updatedAt).toLocaleDateString()}</time> : ''}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
      <nav className="pager" aria-label="Pages of the list">
        <button type="button" onClick={() => setQuery({ page: String(page - 1) })} disabled={page <= 1}>Previous</button>
        <span aria-live="polite">Page {page} of {totalPages}</span>
        <button type="button" onClick={() => setQuery({ page: String(page + 1) })} disabled={page >= totalPages}>Next</button>
      </nav>
    </section>
  );
}

function BulkResults({ results, onClose }: { results: { action: string; items: Array<BulkResult & { name: string }> }; onClose(): void }) {
  const ok = results.items.filter((i) => i.ok).length;
  const failed = results.items.length - ok;
  const done = { publish: 'Published', unpublish: 'Unpublished', delete: 'Deleted' }[results.action] ?? 'Done';
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="card results" role="status" tabIndex={-1} ref={ref} aria-label="Bulk action results">
      <div className="results-head">
        <strong>{done} {ok} of {results.items.length}{failed ? ` · ${failed} failed` : ''}</strong>
        <button type="button" onClick={onClose}>Dismiss</button>
      </div>
      <ul>
        {results.items.map((i) => (
          <li key={i.id} className={i.ok ? 'ok' : 'failed'}>
            <span className="clip" title={i.name}>{i.name}</span>
            <span>{i.ok ? done : `Failed: ${i.error?.message ?? 'unknown error'}`}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
