import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, apiAll, apiData } from '../api';
import { EmptyState, ErrorState, Loading } from '../ui';
import type { SettingsProps } from './SettingsScreen';
import { Clip, ConfirmButton, CopyField, Head, messageOf, when } from './team-ui';

// API keys (admins and owners): the list never shows a key, only its type, name, permissions and
// dates; a new key is shown once, with a copy button; revoking asks a second time.

type KeyType = 'public' | 'secret' | 'preview';
interface ApiKey { id: string; type: KeyType; name: string | null; prefix: string; permissions: string[]; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }
interface CreatedKey { id: string; type: KeyType; name: string | null; key: string; permissions: string[]; createdAt: string }

const types: Array<{ value: KeyType; label: string; about: string }> = [
  { value: 'public', label: 'Public', about: 'Reads published content. Safe to ship in a website.' },
  { value: 'secret', label: 'Secret', about: 'Reads, and writes what its permissions allow. Keep it on a server.' },
  { value: 'preview', label: 'Preview', about: 'Reads the latest drafts (X-Preview-Key). For previews of unpublished content.' },
];
const permissionChoices = [
  { value: 'content:write', about: 'create, update, publish and delete pages and items' },
  { value: 'media:write', about: 'upload and change media' },
  { value: 'ai:use', about: 'the AI assistance endpoints' },
];

export function KeysScreen({ project }: SettingsProps) {
  const queryClient = useQueryClient();
  const [showRevoked, setShowRevoked] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const keys = useQuery({
    queryKey: [project, 'keys', showRevoked],
    queryFn: () => apiAll<ApiKey>(`/keys${showRevoked ? '?includeRevoked=true' : ''}`, { project }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [project, 'keys'] });

  return (
    <section className="team" aria-labelledby="keys-title">
      <Head title="API keys" id="keys-title">
        Keys for the public API (<code>/api/v1/…</code>). A key is shown once, when it is created: copy it then.
      </Head>
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <CreateKey project={project} onCreated={(k) => { setCreated(k); void refresh(); }} />
      <div className="card">
        <div className="row">
          <h2 id="keys-list">Keys</h2>
          <label className="choice"><input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} /> Show revoked keys</label>
        </div>
        {keys.isPending ? <Loading label="Loading the keys…" />
          : keys.isError ? <ErrorState error={keys.error} retry={() => void keys.refetch()} />
            : keys.data.length === 0 ? <EmptyState title="No keys yet">Create a public key for a website, a secret key for a server, or a preview key for drafts.</EmptyState>
              : (
                <ul className="team-list" aria-labelledby="keys-list">
                  {keys.data.map((k) => <KeyRow key={k.id} project={project} k={k} onRevoked={() => void refresh()} />)}
                </ul>
              )}
      </div>
    </section>
  );
}

function NewKey({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <div className="card oncebox" role="region" aria-labelledby="newkey-title">
      <h2 id="newkey-title">New {created.type} key{created.name ? `: ${created.name}` : ''}</h2>
      <CopyField label="The new key" value={created.key} note="This is the only time the key is shown. Copy it now and keep it somewhere safe; if it is lost, create another and revoke this one." />
      <div className="actions"><button type="button" onClick={onDone}>I have copied it</button></div>
    </div>
  );
}

function CreateKey({ project, onCreated }: { project: string; onCreated: (k: CreatedKey) => void }) {
  const ids = useId();
  const [type, setType] = useState<KeyType>('public');
  const [name, setName] = useState('');
  const [perms, setPerms] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => apiData<CreatedKey>('/keys', {
      method: 'POST', project,
      body: { type, ...(name.trim() ? { name: name.trim() } : {}), ...(type === 'secret' ? { permissions: perms } : {}) },
    }),
    onSuccess: (k) => { setName(''); setPerms([]); onCreated(k); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <form className="card" onSubmit={submit} aria-labelledby={`${ids}-t`}>
      <h2 id={`${ids}-t`}>Create a key</h2>
      <fieldset>
        <legend>Type</legend>
        <div className="choices">
          {types.map((t) => (
            <label key={t.value} className="choice">
              <input type="radio" name={`${ids}-type`} value={t.value} checked={type === t.value} onChange={() => setType(t.value)} />
              <span><strong>{t.label}</strong><br /><span className="hint">{t.about}</span></span>
            </label>
          ))}
        </div>
      </fieldset>
      {type === 'secret' && (
        <fieldset>
          <legend>Permissions of the secret key</legend>
          <p className="hint">Every key reads. A secret key writes only what is ticked here.</p>
          <div className="choices">
            {permissionChoices.map((p) => (
              <label key={p.value} className="choice">
                <input type="checkbox" checked={perms.includes(p.value)}
                  onChange={(e) => setPerms((old) => e.target.checked ? [...old, p.value] : old.filter((x) => x !== p.value))} />
                <span><code>{p.value}</code> <span className="hint">{p.about}</span></span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="row">
        <div className="field">
          <label htmlFor={`${ids}-name`}>Name (optional)</label>
          <input id={`${ids}-name`} type="text" maxLength={255} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Website, Build server" aria-describedby={create.isError ? `${ids}-err` : undefined} />
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>{create.isPending ? 'Creating…' : `Create ${type} key`}</button>
      </div>
      {create.isError && <p id={`${ids}-err`} className="refusal" role="alert">{messageOf(create.error)}</p>}
    </form>
  );
}

function KeyRow({ project, k, onRevoked }: { project: string; k: ApiKey; onRevoked: () => void }) {
  const errId = useId();
  const revoke = useMutation({
    mutationFn: () => api(`/keys/${encodeURIComponent(k.id)}`, { method: 'DELETE', project, body: {} }),
    onSuccess: onRevoked,
  });
  const label = k.name || `Unnamed ${k.type} key`;
  return (
    <li className={k.revokedAt ? 'revoked' : undefined}>
      <div className="item-head">
        <Clip className="item-title">{label}</Clip>
        <span className="pill">{k.type}</span>
        {k.revokedAt && <span className="pill revoked">revoked {when(k.revokedAt)}</span>}
      </div>
      <dl className="item-facts">
        <div><dt>Permissions</dt><dd>{k.type === 'secret' ? (k.permissions.length ? k.permissions.join(', ') : 'read only') : 'read only'}{k.type === 'preview' ? ' (drafts)' : ''}</dd></div>
        <div><dt>Created</dt><dd>{when(k.createdAt)}</dd></div>
        {/* Shown where the server knows it (it does not record every use yet). */}
        {k.lastUsedAt && <div><dt>Last used</dt><dd>{when(k.lastUsedAt)}</dd></div>}
      </dl>
      {!k.revokedAt && (
        <div className="item-actions">
          <ConfirmButton label="Revoke" name={`Revoke ${label}`} confirmLabel={`Revoke ${label}`} question={`Revoke ${label}? Sites using it stop working at once.`}
            onConfirm={() => revoke.mutate()} pending={revoke.isPending} describedBy={revoke.isError ? errId : undefined} />
          {revoke.isError && <p id={errId} className="refusal" role="alert">{messageOf(revoke.error)}</p>}
        </div>
      )}
    </li>
  );
}
