import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, apiData, setUnauthorizedHandler, type Listed, type Me, type Role } from './api';
import { MediaScreen } from './media/MediaScreen';
import { currentPath, href, navigate, useLocation } from './router';
import { ListScreen } from './screens/ListScreen';
import { listUrl, useSections, type Section } from './sections';
import { SettingsNav, SettingsScreen } from './settings/SettingsScreen';
import { EmptyState, ErrorState, FullPage, link, Link, Loading, Redirect } from './ui';

// The editors load when first opened (they bring the field controls and the rich text editor).
const EntryScreen = lazy(() => import('./editor/EntryScreen').then((m) => ({ default: m.EntryScreen })));
const TermScreen = lazy(() => import('./editor/TermScreen').then((m) => ({ default: m.TermScreen })));

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
  const menuButton = useRef<HTMLButtonElement>(null);
  // Escape closes the open menu (at narrow widths) and gives the focus back to its button.
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const key = rest[0] === 'pages' ? `page:${rest[1]}` : rest[0] === 'items' ? `item:${rest[1]}` : rest[0] === 'blog' ? `blog:${rest[1]}` : rest[0] === 'media' ? 'media' : null;
  const section = sections.find((s) => s.key === key);
  const entryId = rest[0] === 'blog' ? rest[2] : rest[2];

  let screen: ReactNode;
  if (rest[0] === 'settings') screen = <SettingsScreen key={rest[1] ?? ''} me={me} project={project} role={role} area={rest[1] ?? ''} rest={rest.slice(2)} />;
  else if (!key) screen = <Home sections={sections} pending={pending} />;
  else if (pending) screen = <Loading label="Loading the project’s schema…" />;
  else if (error) screen = <ErrorState error={error} />;
  else if (!section) screen = <EmptyState title="Not found">This project has no such section.</EmptyState>;
  else if (entryId && (section.kind === 'page' || section.kind === 'item' || section.kind === 'post')) {
    screen = <EntryScreen key={entryId} project={project} section={section} id={decodeURIComponent(entryId)} />;
  } else if (entryId && section.kind === 'term') {
    screen = <TermScreen key={entryId} project={project} section={section} id={decodeURIComponent(entryId)} />;
  } else if (section.kind === 'media') screen = <MediaScreen key={project} project={project} role={role} />;
  else screen = <ListScreen key={section.key} project={project} role={role} section={section} />;

  const groups = ['Pages', 'Collections', 'Blog', 'Library'] as const;
  return (
    <div className="shell">
      <a className="skip" href="#main">Skip to content</a>
      <header className="topbar">
        <button ref={menuButton} type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="sidenav" onClick={() => setMenuOpen((o) => !o)}>Menu</button>
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
        <SettingsNav project={project} role={role} current={rest[0] === 'settings' ? rest[1] ?? '' : null} />
      </nav>
      <main id="main" className="main" tabIndex={-1}><Suspense fallback={<Loading label="Loading the editor…" />}>{screen}</Suspense></main>
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
