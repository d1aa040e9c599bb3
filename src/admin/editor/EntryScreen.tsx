import { useQuery } from '@tanstack/react-query';
import { apiData, type Entry } from '../api';
import type { Section } from '../sections';
import { ErrorState, Link, Loading, str } from '../ui';

// The entry, read-only: where the editor will go.

export function EntryScreen({ project, section, id }: { project: string; section: Section; id: string }) {
  const path = `${section.list.path}/${encodeURIComponent(id)}`;
  const entry = useQuery({ queryKey: [project, 'entry', section.key, id], queryFn: () => apiData<Entry>(path, { project }) });
  const hasVersions = section.kind === 'page' || section.kind === 'item';
  const versions = useQuery({
    queryKey: [project, 'versions', section.key, id],
    queryFn: () => apiData<unknown[]>(`${path}/versions`, { project }),
    enabled: hasVersions,
  });
  const back = <p><Link to={section.to}>← {section.label}</Link></p>;
  if (entry.isPending) return <>{back}<Loading label="Loading the entry…" /></>;
  if (entry.error) return <>{back}<ErrorState error={entry.error} retry={() => void entry.refetch()} /></>;
  const e = entry.data;
  const name = str(e.name) ?? str(e.title) ?? e.id;
  // Pages and items keep their fields in draftContent; a post's are its own members.
  const fields = section.kind === 'post'
    ? { summary: e.summary ?? null, body: e.body ?? null, author: e.author ?? null, categories: e.categories ?? [], tags: e.tags ?? [], seo: e.seo ?? null }
    : e.draftContent ?? null;
  const st = e.publishAt && e.status !== 'published' ? 'scheduled' : e.status;
  return (
    <article aria-labelledby="entry-title">
      {back}
      <h1 id="entry-title" className="clip" title={name}>{name}</h1>
      <dl className="facts">
        <div><dt>Slug</dt><dd className="clip" title={e.slug}>{e.slug}</dd></div>
        <div><dt>Status</dt><dd><span className={`badge ${st}`}>{st}</span></dd></div>
        {e.version !== undefined && <div><dt>Version</dt><dd>{e.version}</dd></div>}
        {hasVersions && <div><dt>Versions</dt><dd>{versions.data ? versions.data.length : versions.error ? 'unavailable' : '…'}</dd></div>}
        {e.publishAt && <div><dt>Publishes at</dt><dd><time dateTime={e.publishAt}>{new Date(e.publishAt).toLocaleString()}</time></dd></div>}
      </dl>
      <p className="notice">The editor comes here: for now the entry is shown as it is stored.</p>
      <h2>Fields</h2>
      <pre className="json" tabIndex={0} aria-label="Fields as JSON">{JSON.stringify(fields, null, 2)}</pre>
    </article>
  );
}
