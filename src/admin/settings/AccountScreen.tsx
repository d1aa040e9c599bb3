import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { navigate } from '../router';
import { Link } from '../ui';
import type { SettingsProps } from './SettingsScreen';
import { Clip, Head, messageOf, when } from './team-ui';

// Account: the signed-in user (from /auth/me, which the shell has already loaded), their projects
// with their role in each (a link switches to it), and signing out.

export function AccountScreen({ me, project }: SettingsProps) {
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => api('/auth/logout', { method: 'POST', body: {} }),
    onSuccess: () => { queryClient.removeQueries(); navigate('/login', { replace: true }); },
  });
  const projects = [...me.memberships].sort((a, b) => a.project.name.localeCompare(b.project.name));
  return (
    <section className="team" aria-labelledby="account-title">
      <Head title="Account" id="account-title">You are signed in as {me.user.email}.</Head>
      <div className="card">
        <h2>You</h2>
        <dl className="item-facts">
          <div><dt>Email</dt><dd><Clip>{me.user.email}</Clip></dd></div>
          <div><dt>Name</dt><dd>{me.user.name ? <Clip>{me.user.name}</Clip> : '—'}</dd></div>
          <div><dt>Session ends</dt><dd>{when(me.session.expiresAt)}</dd></div>
        </dl>
        <p className="hint">A session lasts 7 days from signing in. Passwords are changed from the terminal (<code>cms users</code>).</p>
        <div className="actions">
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>{signOut.isPending ? 'Signing out…' : 'Sign out'}</button>
        </div>
        {signOut.isError && <p className="refusal" role="alert">{messageOf(signOut.error)}</p>}
      </div>
      <div className="card">
        <h2 id="account-projects">Your projects ({projects.length})</h2>
        <ul className="team-list projects-list" aria-labelledby="account-projects">
          {projects.map((m) => {
            const current = m.project.slug === project;
            return (
              <li key={m.project.id}>
                <div className="item-head">
                  <span className="item-title clip" title={m.project.name}>
                    {current ? m.project.name : <Link to={`/p/${encodeURIComponent(m.project.slug)}`}>{m.project.name}</Link>}
                  </span>
                  <span className="pill">{m.role}</span>
                  {current && <span className="pill active">current project</span>}
                </div>
                <dl className="item-facts"><div><dt>Slug</dt><dd><Clip>{m.project.slug}</Clip></dd></div></dl>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
