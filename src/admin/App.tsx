import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, apiData, canWrite, setUnauthorizedHandler, type BulkResult, type Entry, type Listed, type Me, type Role, type TypeDef } from './api';
import { currentPath, href, navigate, useLocation } from './router';

// ---------------------------------------------------------------------------------------------
// The app: sign-in, or the signed-in shell for one project.

export function App() {
  const { path, query } = useLocation();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    // A session that ends (expired, signed out elsewhere) sends to sign-in, and back here after.
    setUnauthorizedHandler(() => {
      if (currentPath().startsWith('/login')) return;
      setNotice('Your session has ended. Sign in again to continue.');
      queryClient.removeQueries();
      navigate(`/login?next=${encodeURIComponent(currentPath())}`, { replace: true });
    });
  }, [queryClient]);

  if (path === '/login') return <SignIn next={query.get('next')} notice={notice} onSignedIn={() => setNotice(null)} />;
  return <SignedIn path={path} />;
}

function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => apiData<Me>('/auth/me'), retry: false, staleTime: 60_000 });
}

function SignedIn({ path }: { path: string }) {
  const me = useMe();
  useEffect(() => {
    if (me.error instanceof ApiError && me.error.status === 401) {
      navigate(`/login?next=${encodeURIComponent(currentPath())}`, { replace: true });
    }
  }, [me.error]);
  if (me.isPending) return <FullPage><Loading label="Loading your account…" /></FullPage>;
  if (me.error) {
    if (me.error instanceof ApiError && me.error.status === 401) return <FullPage><Loading label="Redirecting to sign-in…" /></FullPage>;
    return <FullPage><ErrorState error={me.error} retry={() => void me.refetch()} /></FullPage>;
  }
  const memberships = me.data.memberships;
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'p' || !parts[1]) {
    if (memberships.length === 0) {
      return <FullPage><EmptyState title="No projects yet">Your account is not a member of any project. Ask an admin to add you (<code>cms users add</code>).</EmptyState><SignOutButton /></FullPage>;
    }
    const remembered = localStorage.getItem('cms-admin-project');
    const chosen = memberships.find((m) => m.project.slug === remembered) ?? memberships[0];
    return <Redirect to={`/p/${chosen?.project.slug ?? ''}`} />;
  }
  const project = decodeURIComponent(parts[1]);
  const membership = memberships.find((m) => m.project.slug === project);
  if (!membership) {
    return (
      <FullPage>
        <EmptyState title="Project not available">You are not a member of “{project}”.</EmptyState>
        <p><a href={href('/')} onClick={link('/')}>Go to your projects</a></p>
      </FullPage>
    );
  }
  return <Shell me={me.data} project={project} role={membership.role} rest={parts.slice(2)} />;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/** A link click handled by the client router (modifier clicks open a tab as usual). */
function link(to: string) {
  return (e: { preventDefault(): void; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; button: number }) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(to);
  };
}

function Link({ to, children, className, current }: { to: string; children: ReactNode; className?: string; current?: boolean }) {
  return <a href={href(to)} onClick={link(to)} className={className} aria-current={current ? 'page' : undefined}>{children}</a>;
}

// ---------------------------------------------------------------------------------------------
// Sign-in and sign-out.

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

function SignIn({ next, notice, onSignedIn }: { next: string | null; notice: string | null; onSignedIn(): void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => api('/auth/login', { method: 'POST', body: { email, password } }),
    onSuccess: async () => {
      onSignedIn();
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      // Only a path of this app, never another site.
      const target = next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
      navigate(target, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate();
  };
  let message: string | null = null;
  if (signIn.error instanceof ApiError) {
    message = signIn.error.code === 'RATE_LIMITED'
      ? `Too many failed sign-ins. Try again in ${formatWait(signIn.error.retryAfter ?? 60)}.`
      : signIn.error.message;
  } else if (signIn.error) message = 'The server could not be reached. Check your connection and try again.';
  return (
    <main className="signin">
      <form className="card signin-card" onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to cms</h1>
        {notice && <p className="notice" role="status">{notice}</p>}
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {message && <p className="error" role="alert">{message}</p>}
        <button type="submit" className="primary" disabled={signIn.isPending}>{signIn.isPending ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}

function SignOutButton() {
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => api('/auth/logout', { method: 'POST', body: {} }),
    onSettled: () => {
      queryClient.removeQueries();
      navigate('/login', { replace: true });
    },
  });
  return <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>Sign out</button>;
}

// ---------------------------------------------------------------------------------------------
// The shell: header (project switcher, user, sign out), navigation by schema, the screen.

interface Section {
  key: string;
  label: string;
  to: string;
  group: 'Pages' | 'Collections' | 'Blog' | 'Library';
  /** The list path of the admin API and its fixed parameters, counted with limit=1. */
  list: { path: string; params: Record<string, string> };
  kind: 'page' | 'item' | 'post' | 'term' | 'media';
}

function useSections(project: string): { sections: Section[]; pending: boolean; error: unknown } {
  const pageTypes = useQuery({ queryKey: [project, 'page-types'], queryFn: () => apiData<TypeDef[]>('/page-types', { project }) });
  const collections = useQuery({ queryKey: [project, 'collection-types'], queryFn: () => apiData<TypeDef[]>('/collection-types', { project }) });
  const p = `/p/${encodeURIComponent(project)}`;
  const sections: Section[] = [
    ...(pageTypes.data ?? []).map((t): Section => ({ key: `page:${t.slug}`, label: t.name, to: `${p}/pages/${t.slug}`, group: 'Pages', list: { path: '/pages', params: { pageType: t.slug } }, kind: 'page' })),
    ...(collections.data ?? []).map((t): Section => ({ key: `item:${t.slug}`, label: t.name, to: `${p}/items/${t.slug}`, group: 'Collections', list: { path: '/collection-items', params: { collection: t.slug } }, kind: 'item' })),
    { key: 'blog:posts', label: 'Posts', to: `${p}/blog/posts`, group: 'Blog', list: { path: '/blog/posts', params: {} }, kind: 'post' },
    { key: 'blog:authors', label: 'Authors', to: `${p}/blog/authors`, group: 'Blog', list: { path: '/blog/authors', params: {} }, kind: 'term' },
    { key: 'blog:categories', label: 'Categories', to: `${p}/blog/categories`, group: 'Blog', list: { path: '/blog/categories', params: {} }, kind: 'term' },
    { key: 'blog:tags', label: 'Tags', to: `${p}/blog/tags`, group: 'Blog', list: { path: '/blog/tags', params: {} }, kind: 'term' },
    { key: 'media', label: 'Media', to: `${p}/media`, group: 'Library', list: { path: '/media', params: {} }, kind: 'media' },
  ];
  return { sections, pending: pageTypes.isPending || collections.isPending, error: pageTypes.error ?? collections.error };
}

const listUrl = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params).toString()}`;

function Shell({ me, project, role, rest }: { me: Me; project: string; role: Role; rest: string[] }) {
  const { sections, pending, error } = useSections(project);
  const [menuOpen, setMenuOpen] = useState(false);
  const counts = useQueries({
    queries: sections.map((s) => ({
      queryKey: [project, 'count', s.key],
      queryFn: () => api<Listed<unknown>>(listUrl(s.list.path, { ...s.list.params, limit: '1' }), { project }),
    })),
  });
  useEffect(() => { localStorage.setItem('cms-admin-project', project); }, [project]);
  const { path } = useLocation();
  useEffect(() => setMenuOpen(false), [path]);

  const key = rest[0] === 'pages' ? `page:${rest[1]}` : rest[0] === 'items' ? `item:${rest[1]}` : rest[0] === 'blog' ? `blog:${rest[1]}` : rest[0] === 'media' ? 'media' : null;
  const section = sections.find((s) => s.key === key);
  const entryId = rest[0] === 'blog' ? rest[2] : rest[2];

  let screen: ReactNode;
  if (!key) screen = <Home sections={sections} pending={pending} />;
  else if (pending) screen = <Loading label="Loading the project’s schema…" />;
  else if (error) screen = <ErrorState error={error} />;
  else if (!section) screen = <EmptyState title="Not found">This project has no such section.</EmptyState>;
  else if (entryId && (section.kind === 'page' || section.kind === 'item' || section.kind === 'post')) {
    screen = <EntryScreen key={entryId} project={project} section={section} id={decodeURIComponent(entryId)} />;
  } else screen = <ListScreen key={section.key} project={project} role={role} section={section} />;

  const groups = ['Pages', 'Collections', 'Blog', 'Library'] as const;
  return (
    <div className="shell">
      <a className="skip" href="#main">Skip to content</a>
      <header className="topbar">
        <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="sidenav" onClick={() => setMenuOpen((o) => !o)}>Menu</button>
        <Link to={`/p/${encodeURIComponent(project)}`} className="brand">cms admin</Link>
        <ProjectSwitcher me={me} project={project} />
        <span className="who clip" title={`${me.user.email} (${role})`}>{me.user.email} <span className="role">{role}</span></span>
        <SignOutButton />
      </header>
      <nav id="sidenav" className={menuOpen ? 'sidenav open' : 'sidenav'} aria-label="Content">
        {groups.map((g) => {
          const inGroup = sections.map((s, i) => ({ s, count: counts[i] })).filter(({ s }) => s.group === g);
          return (
            <div key={g} className="navgroup">
              <h2>{g}</h2>
              {g === 'Pages' || g === 'Collections' ? (pending ? <p className="muted">Loading…</p> : inGroup.length === 0 ? <p className="muted">None defined</p> : null) : null}
              <ul>
                {inGroup.map(({ s, count }) => {
                  const n = count?.data?.pagination?.total;
                  return (
                    <li key={s.key}>
                      <Link to={s.to} current={s.key === key} className="navlink">
                        <span className="clip" title={s.label}>{s.label}</span>
                        <span className="count" aria-label={n === undefined ? 'count loading' : `${n} ${n === 1 ? 'entry' : 'entries'}`}>{n === undefined ? (count?.error ? '!' : '…') : n}</span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </nav>
      <main id="main" className="main" tabIndex={-1}>{screen}</main>
    </div>
  );
}

function ProjectSwitcher({ me, project }: { me: Me; project: string }) {
  const id = useId();
  if (me.memberships.length < 2) {
    const only = me.memberships[0];
    return <span className="project clip" title={only?.project.name}>{only?.project.name}</span>;
  }
  return (
    <span className="project">
      <label htmlFor={id} className="visually-hidden">Project</label>
      <select id={id} value={project} onChange={(e) => navigate(`/p/${encodeURIComponent(e.target.value)}`)}>
        {me.memberships.map((m) => <option key={m.project.slug} value={m.project.slug}>{m.project.name} ({m.role})</option>)}
      </select>
    </span>
  );
}

function Home({ sections, pending }: { sections: Section[]; pending: boolean }) {
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Content</h1>
      {pending ? <Loading label="Loading the project’s schema…" /> : (
        <ul className="tiles">
          {sections.map((s) => <li key={s.key}><Link to={s.to} className="tile"><span className="muted">{s.group}</span><span className="clip" title={s.label}>{s.label}</span></Link></li>)}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
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

interface Row { id: string; name: string; slug: string; status?: string; publishAt?: string | null; updatedAt?: string; raw: Record<string, unknown> }

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

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

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
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

function ListScreen({ project, role, section }: { project: string; role: Role; section: Section }) {
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
  const entryLink = (r: Row) => section.kind === 'page' || section.kind === 'item' || section.kind === 'post' ? `${section.to}/${encodeURIComponent(r.id)}` : null;
  const headingId = useId();

  return (
    <section aria-labelledby={headingId}>
      <div className="screen-head">
        <h1 id={headingId} className="clip" title={section.label}>{section.label}</h1>
        <span className="muted">{list.data ? `${total} ${total === 1 ? 'entry' : 'entries'}` : ''}</span>
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

// ---------------------------------------------------------------------------------------------
// The entry, read-only: where the editor will go.

function EntryScreen({ project, section, id }: { project: string; section: Section; id: string }) {
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

// ---------------------------------------------------------------------------------------------
// States.

function FullPage({ children }: { children: ReactNode }) {
  return <main className="fullpage">{children}</main>;
}

function Loading({ label }: { label: string }) {
  return <div className="state loading" role="status"><span className="spinner" aria-hidden="true" />{label}</div>;
}

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return <div className="state empty"><h2>{title}</h2><p>{children}</p></div>;
}

function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof ApiError
    ? error.status === 403 ? `You do not have access to this: ${error.message}` : `${error.message} (${error.code})`
    : 'The server could not be reached.';
  return (
    <div className="state error-state" role="alert">
      <h2>Something went wrong</h2>
      <p>{message}</p>
      {retry && <button type="button" onClick={retry}>Try again</button>}
    </div>
  );
}
