import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, apiAll, apiData, type Role } from '../api';
import { EmptyState, ErrorState, Loading } from '../ui';
import type { SettingsProps } from './SettingsScreen';
import { Clip, ConfirmButton, CopyField, Head, messageOf, when } from './team-ui';

// Members (admins and owners): list with roles, add an existing user by email, change a role,
// remove. The API's rules are explained up front where the screen knows them (only an owner makes
// an owner; the last owner stays), and the API's own message is shown at the control it refused.

interface Member { id: string; email: string; name: string | null; role: Role; createdAt: string }

const roleChoices: Array<{ value: Role; about: string }> = [
  { value: 'viewer', about: 'reads content' },
  { value: 'editor', about: 'writes and publishes content and media' },
  { value: 'developer', about: 'also schemas, webhooks and migrations' },
  { value: 'admin', about: 'also API keys, members and locales' },
  { value: 'owner', about: 'everything; only an owner makes an owner' },
];
const lastOwnerRule = 'The last owner of a project cannot be removed or demoted; make someone else owner first.';
const sameSentence = (a: string, b: string) => a.replace(/\.$/, '') === b.replace(/\.$/, '');
const ownerRule = 'Only an owner can make someone an owner.';

export function MembersScreen({ project, role, me }: SettingsProps) {
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: [project, 'members'], queryFn: () => apiAll<Member>('/members', { project }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [project, 'members'] });
  const owners = members.data?.filter((m) => m.role === 'owner').length ?? 0;
  return (
    <section className="team" aria-labelledby="members-title">
      <Head title="Members" id="members-title">Who can sign in to this project, and what each of them may do.</Head>
      <AddMember project={project} myRole={role} onAdded={() => void refresh()} />
      <div className="card">
        <h2 id="members-list">Members{members.data ? ` (${members.data.length})` : ''}</h2>
        {role !== 'owner' && <p className="hint">{ownerRule} You are an {role}, so the owner role is not offered to you.</p>}
        {members.isPending ? <Loading label="Loading the members…" />
          : members.isError ? <ErrorState error={members.error} retry={() => void members.refetch()} />
            : members.data.length === 0 ? <EmptyState title="No members">Add someone with the form above.</EmptyState>
              : (
                <ul className="team-list" aria-labelledby="members-list">
                  {members.data.map((m) => (
                    <MemberRow key={m.id} project={project} member={m} myRole={role} isMe={m.id === me.user.id} lastOwner={m.role === 'owner' && owners <= 1} onChanged={() => void refresh()} />
                  ))}
                </ul>
              )}
      </div>
    </section>
  );
}

function RoleOptions({ myRole, current }: { myRole: Role; current?: Role }) {
  return (
    <>
      {roleChoices.map((r) => (
        <option key={r.value} value={r.value} disabled={r.value === 'owner' && myRole !== 'owner' && current !== 'owner'}>
          {r.value}{r.value === 'owner' && myRole !== 'owner' && current !== 'owner' ? ' (owners only)' : ''}
        </option>
      ))}
    </>
  );
}

function AddMember({ project, myRole, onAdded }: { project: string; myRole: Role; onAdded: () => void }) {
  const ids = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [added, setAdded] = useState('');
  const add = useMutation({
    mutationFn: () => apiData<Member>('/members', { method: 'POST', project, body: { email: email.trim(), role } }),
    onSuccess: (m) => { setAdded(`${m.email} was added as ${m.role}.`); setEmail(''); onAdded(); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); setAdded(''); add.mutate(); };
  const notFound = add.error instanceof Error && 'code' in add.error && add.error.code === 'NOT_FOUND';
  const command = `cms users create --email ${email.trim() || 'person@example.com'} --role ${role}`;
  return (
    <form className="card" onSubmit={submit} aria-labelledby={`${ids}-t`}>
      <h2 id={`${ids}-t`}>Add a member</h2>
      <div className="row">
        <div className="field">
          <label htmlFor={`${ids}-email`}>Email of an existing user</label>
          <input id={`${ids}-email`} type="email" required maxLength={320} value={email} onChange={(e) => setEmail(e.target.value)}
            aria-invalid={add.isError || undefined} aria-describedby={add.isError ? `${ids}-err` : `${ids}-how`} />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-role`}>Role</label>
          <select id={`${ids}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>{/* cast: the options are roles */}
            <RoleOptions myRole={myRole} />
          </select>
        </div>
        <button type="submit" className="primary" disabled={add.isPending}>{add.isPending ? 'Adding…' : 'Add member'}</button>
      </div>
      <p className="hint">{roleChoices.map((r) => `${r.value}: ${r.about}`).join('. ')}.</p>
      {add.isError && <p id={`${ids}-err`} className="refusal" role="alert">{messageOf(add.error)}</p>}
      <p className="small" role="status">{added}</p>
      <details open={notFound || undefined}>
        <summary>Someone without an account?</summary>
        <p id={`${ids}-how`} className="hint">
          The admin API adds existing users only: new accounts (with their password) are created from the terminal, which
          also makes them a member of this project. Run this where the project lives, with the password in <code>CMS_PASSWORD</code>:
        </p>
        <CopyField label="Command to create the user" value={`${command} --project ${project}`} />
      </details>
    </form>
  );
}

function MemberRow({ project, member, myRole, isMe, lastOwner, onChanged }: {
  project: string; member: Member; myRole: Role; isMe: boolean; lastOwner: boolean; onChanged: () => void;
}) {
  const ids = useId();
  const [role, setRole] = useState<Role>(member.role);
  // The list read again (after a change here or elsewhere) brings the stored role.
  useEffect(() => setRole(member.role), [member.role]);
  const change = useMutation({
    mutationFn: (next: Role) => apiData<Member>(`/members/${encodeURIComponent(member.id)}`, { method: 'PUT', project, body: { role: next } }),
    onSuccess: onChanged,
    // Refused (the API's message shows below): back to the stored role, and the list read again,
    // since a refusal often means it changed behind this screen (another owner demoted meanwhile).
    onError: () => { setRole(member.role); onChanged(); },
  });
  const remove = useMutation({
    mutationFn: () => api(`/members/${encodeURIComponent(member.id)}`, { method: 'DELETE', project, body: {} }),
    onSuccess: onChanged,
  });
  const why = lastOwner ? lastOwnerRule : '';
  const label = member.name ? `${member.name} (${member.email})` : member.email;
  const error = change.error ?? remove.error;
  const merged = !!why && !!error && sameSentence(messageOf(error), why);
  return (
    <li>
      <div className="item-head">
        <Clip className="item-title">{label}</Clip>
        {isMe && <span className="pill">you</span>}
        <span className="pill">{member.role}</span>
      </div>
      <dl className="item-facts"><div><dt>Member since</dt><dd>{when(member.createdAt)}</dd></div></dl>
      <div className="item-actions">
        <label htmlFor={`${ids}-role`} className="visually-hidden">Role of {member.email}</label>
        <select id={`${ids}-role`} value={role} disabled={change.isPending || !!why} aria-describedby={why ? `${ids}-why` : error ? `${ids}-err` : undefined}
          onChange={(e) => { const next = e.target.value as Role; /* cast: the options are roles */ setRole(next); change.reset(); remove.reset(); change.mutate(next); }}>
          <RoleOptions myRole={myRole} current={member.role} />
        </select>
        <ConfirmButton label="Remove" name={`Remove ${member.email}`} confirmLabel={`Remove ${member.email}`}
          question={isMe ? 'Remove yourself? You lose access to this project.' : `Remove ${member.email} from the project?`}
          onConfirm={() => { change.reset(); remove.mutate(); }} pending={remove.isPending} disabled={!!why} describedBy={why ? `${ids}-why` : undefined} />
      </div>
      {/* When the API's refusal says what the rule says, it is shown once (as the refusal). */}
      {why && !merged && <p id={`${ids}-why`} className="explain">{why}</p>}
      {error && <p id={merged ? `${ids}-why` : `${ids}-err`} className="refusal" role="alert">{messageOf(error)}</p>}
      {change.isSuccess && <p className="small" role="status">Role changed to {change.data.role}.</p>}
    </li>
  );
}
