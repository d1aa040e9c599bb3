import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ApiError, api, apiAll, apiData } from '../api';
import { navigate } from '../router';
import { EmptyState, ErrorState, Link, Loading } from '../ui';
import type { SettingsProps } from './SettingsScreen';
import { Clip, ConfirmButton, CopyField, Head, messageOf, when } from './team-ui';

// Webhooks (developers and up, docs/webhooks.md): the list, a form to create and edit (URL, events,
// active), the secret (masked; shown whole once after create and regenerate), a test delivery, and
// each webhook's delivery log with its attempts, filtered by status, with redeliver.

interface Webhook {
  id: string; url: string; events: string[]; headers: Record<string, string>; active: boolean;
  secret: string; previousSecretExpiresAt: string | null; createdAt: string; updatedAt: string;
}
type DeliveryStatus = 'pending' | 'success' | 'failed' | 'exhausted';
interface Attempt { attemptNumber: number; startedAt: string; durationMs: number; statusCode: number | null; success: boolean; error: string | null; responseBody: string | null }
interface Delivery {
  id: string; event: string; status: DeliveryStatus; attemptCount: number; nextAttemptAt: string | null;
  lastStatusCode: number | null; createdAt: string; updatedAt: string; attempts: Attempt[];
}

export const webhookEvents = [
  'page.created', 'page.updated', 'page.published', 'page.unpublished', 'page.deleted',
  'collection_item.created', 'collection_item.updated', 'collection_item.published', 'collection_item.unpublished', 'collection_item.deleted',
  'media.uploaded', 'media.deleted',
] as const;
const statuses: DeliveryStatus[] = ['pending', 'success', 'failed', 'exhausted'];
const pageSize = 20;
/** Until when (ms) the delivery log of a webhook refreshes quickly: set by Send test and Redeliver. */
const watchKey = (project: string, id: string) => [project, 'deliveries-watch', id];
const watchFor = 30_000;

export function WebhooksScreen({ project, rest }: SettingsProps) {
  const base = `/p/${encodeURIComponent(project)}/settings/webhooks`;
  const [revealed, setRevealed] = useState<{ id: string; secret: string } | null>(null);
  if (rest[0] === 'new') {
    return <NewWebhook project={project} base={base} onCreated={(w) => { setRevealed({ id: w.id, secret: w.secret }); navigate(`${base}/${encodeURIComponent(w.id)}`); }} />;
  }
  if (rest[0]) {
    const id = decodeURIComponent(rest[0]);
    return <WebhookDetail key={id} project={project} base={base} id={id} revealed={revealed?.id === id ? revealed.secret : null} onReveal={(secret) => setRevealed({ id, secret })} onHide={() => setRevealed(null)} />;
  }
  return <WebhookList project={project} base={base} />;
}

function WebhookList({ project, base }: { project: string; base: string }) {
  const hooks = useQuery({ queryKey: [project, 'webhooks'], queryFn: () => apiAll<Webhook>('/webhooks', { project }) });
  return (
    <section className="team" aria-labelledby="webhooks-title">
      <Head title="Webhooks" id="webhooks-title">Signed HTTP POSTs to your receivers when content changes (see docs/webhooks.md).</Head>
      <div className="actions"><Link to={`${base}/new`} className="button-link primary">New webhook</Link></div>
      {hooks.isPending ? <Loading label="Loading the webhooks…" />
        : hooks.isError ? <ErrorState error={hooks.error} retry={() => void hooks.refetch()} />
          : hooks.data.length === 0 ? <EmptyState title="No webhooks yet">Create one to tell a site or a service when content changes.</EmptyState>
            : (
              <ul className="team-list" aria-label="Webhooks">
                {hooks.data.map((w) => (
                  <li key={w.id}>
                    <div className="item-head">
                      <span className="item-title clip" title={w.url}><Link to={`${base}/${encodeURIComponent(w.id)}`}>{w.url}</Link></span>
                      <span className={w.active ? 'pill active' : 'pill inactive'}>{w.active ? 'active' : 'inactive'}</span>
                    </div>
                    <dl className="item-facts">
                      <div><dt>Events</dt><dd title={w.events.join(', ')}>{w.events.length === webhookEvents.length ? 'all' : w.events.join(', ')}</dd></div>
                      <div><dt>Secret</dt><dd className="secret">{w.secret}</dd></div>
                      <div><dt>Created</dt><dd>{when(w.createdAt)}</dd></div>
                    </dl>
                  </li>
                ))}
              </ul>
            )}
    </section>
  );
}

interface FormValue { url: string; events: string[]; active: boolean }

/** The create and edit form: URL, events as checkboxes, active; the API's refusals at their field. */
function WebhookForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: {
  initial: FormValue; submitLabel: string; pending: boolean; error: unknown; onSubmit: (v: FormValue) => void; onCancel?: () => void;
}) {
  const ids = useId();
  const [v, setV] = useState<FormValue>(initial);
  const [localError, setLocalError] = useState('');
  const details = error instanceof ApiError && Array.isArray(error.details) ? error.details as Array<{ path?: unknown; message?: unknown }> : []; // cast: the API's details list
  const at = (name: string) => details.filter((d) => typeof d.path === 'string' ? d.path === name || d.path.startsWith(`${name}.`) || d.path.startsWith(`${name}[`) : Array.isArray(d.path) && d.path[0] === name).map((d) => String(d.message)).join('; ');
  const urlError = at('url');
  const eventsError = localError || at('events');
  const general = error && !urlError && !at('events') ? messageOf(error) : '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (v.events.length === 0) { setLocalError('Choose at least one event.'); return; }
    setLocalError('');
    onSubmit({ ...v, url: v.url.trim() });
  };
  const allOn = v.events.length === webhookEvents.length;
  return (
    <form className="card" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${ids}-url`}>Receiver URL</label>
        <input id={`${ids}-url`} type="url" required value={v.url} placeholder="https://example.com/hooks/cms" onChange={(e) => setV({ ...v, url: e.target.value })}
          aria-invalid={urlError ? true : undefined} aria-describedby={urlError ? `${ids}-url-err` : `${ids}-url-hint`} />
        {urlError ? <p id={`${ids}-url-err`} className="refusal" role="alert">{urlError}</p>
          : <p id={`${ids}-url-hint`} className="hint">http:// or https://, without credentials (put a token in a custom header with <code>cms webhooks update --header</code>).</p>}
      </div>
      <fieldset aria-describedby={eventsError ? `${ids}-ev-err` : undefined}>
        <legend>Events</legend>
        <div className="actions">
          <button type="button" onClick={() => setV({ ...v, events: allOn ? [] : [...webhookEvents] })}>{allOn ? 'Clear all' : 'Select all'}</button>
        </div>
        <div className="choices">
          {webhookEvents.map((ev) => (
            <label key={ev} className="choice">
              <input type="checkbox" checked={v.events.includes(ev)} onChange={(e) => setV({ ...v, events: e.target.checked ? [...v.events, ev] : v.events.filter((x) => x !== ev) })} />
              <code>{ev}</code>
            </label>
          ))}
        </div>
        {eventsError && <p id={`${ids}-ev-err`} className="refusal" role="alert">{eventsError}</p>}
      </fieldset>
      <label className="choice"><input type="checkbox" checked={v.active} onChange={(e) => setV({ ...v, active: e.target.checked })} /> <span>Active <span className="hint">(an inactive webhook gets no deliveries; queued ones wait)</span></span></label>
      {general && <p className="refusal" role="alert">{general}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={pending}>{pending ? 'Saving…' : submitLabel}</button>
        {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}

function NewWebhook({ project, base, onCreated }: { project: string; base: string; onCreated: (w: Webhook) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (v: FormValue) => apiData<Webhook>('/webhooks', { method: 'POST', project, body: v }),
    onSuccess: (w) => { void queryClient.invalidateQueries({ queryKey: [project, 'webhooks'] }); onCreated(w); },
  });
  return (
    <section className="team" aria-labelledby="newhook-title">
      <p><Link to={base}>← All webhooks</Link></p>
      <Head title="New webhook" id="newhook-title">The signing secret is shown once, right after the webhook is created.</Head>
      <WebhookForm initial={{ url: '', events: ['page.published', 'page.unpublished'], active: true }} submitLabel="Create webhook"
        pending={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v)} onCancel={() => navigate(base)} />
    </section>
  );
}

function WebhookDetail({ project, base, id, revealed, onReveal, onHide }: {
  project: string; base: string; id: string; revealed: string | null; onReveal: (secret: string) => void; onHide: () => void;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const hook = useQuery({ queryKey: [project, 'webhooks', id], queryFn: () => apiData<Webhook>(`/webhooks/${encodeURIComponent(id)}`, { project }) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: [project, 'webhooks'] });
  const update = useMutation({
    mutationFn: (v: FormValue) => apiData<Webhook>(`/webhooks/${encodeURIComponent(id)}`, { method: 'PUT', project, body: v }),
    onSuccess: () => { setEditing(false); void invalidate(); },
  });
  const regenerate = useMutation({
    mutationFn: () => apiData<Webhook>(`/webhooks/${encodeURIComponent(id)}/regenerate-secret`, { method: 'POST', project, body: {} }),
    onSuccess: (w) => { onReveal(w.secret); void invalidate(); },
  });
  const test = useMutation({
    mutationFn: () => apiData<Delivery>(`/webhooks/${encodeURIComponent(id)}/test`, { method: 'POST', project, body: {} }),
    onSuccess: () => {
      queryClient.setQueryData(watchKey(project, id), Date.now() + watchFor);
      void queryClient.invalidateQueries({ queryKey: [project, 'deliveries', id] });
    },
  });
  const remove = useMutation({
    mutationFn: () => api(`/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE', project, body: {} }),
    onSuccess: () => { queryClient.removeQueries({ queryKey: [project, 'webhooks', id] }); void invalidate(); navigate(base); },
  });

  const back = <p><Link to={base}>← All webhooks</Link></p>;
  if (hook.isPending) return <section className="team">{back}<Loading label="Loading the webhook…" /></section>;
  if (hook.isError) {
    return (
      <section className="team">{back}
        {hook.error instanceof ApiError && hook.error.status === 404
          ? <EmptyState title="Webhook not found">It may have been deleted. Go back to the list of webhooks.</EmptyState>
          : <ErrorState error={hook.error} retry={() => void hook.refetch()} />}
      </section>
    );
  }
  const w = hook.data;
  return (
    <section className="team" aria-labelledby="hook-title">
      {back}
      <div className="team-head">
        <h1 id="hook-title" className="clip" title={w.url}>{w.url}</h1>
        <p><span className={w.active ? 'pill active' : 'pill inactive'}>{w.active ? 'active' : 'inactive'}</span> <span className="muted">created {when(w.createdAt)}, changed {when(w.updatedAt)}</span></p>
      </div>

      {revealed && (
        <div className="card oncebox" role="region" aria-labelledby="secret-once">
          <h2 id="secret-once">Signing secret</h2>
          <CopyField label="The signing secret" value={revealed} note="Shown only now: copy it into your receiver to check X-Webhook-Signature. Afterwards only its last 8 characters are shown." />
          <div className="actions"><button type="button" onClick={onHide}>I have copied it</button></div>
        </div>
      )}

      {editing ? (
        <div>
          <h2>Edit</h2>
          <WebhookForm initial={{ url: w.url, events: w.events, active: w.active }} submitLabel="Save changes" pending={update.isPending} error={update.error}
            onSubmit={(v) => update.mutate(v)} onCancel={() => { update.reset(); setEditing(false); }} />
        </div>
      ) : (
        <div className="card">
          <h2>Settings</h2>
          <dl className="item-facts">
            <div><dt>URL</dt><dd title={w.url}>{w.url}</dd></div>
            <div><dt>Events</dt><dd title={w.events.join(', ')}>{w.events.join(', ')}</dd></div>
            <div><dt>Secret</dt><dd className="secret">{w.secret}</dd></div>
            {Object.keys(w.headers).length > 0 && <div><dt>Custom headers</dt><dd title={Object.keys(w.headers).join(', ')}>{Object.entries(w.headers).map(([k, v]) => `${k}: ${v}`).join('; ')}</dd></div>}
            {w.previousSecretExpiresAt && <div><dt>Previous secret also signs until</dt><dd>{when(w.previousSecretExpiresAt)}</dd></div>}
          </dl>
          <div className="item-actions">
            <button type="button" onClick={() => { update.reset(); setEditing(true); }}>Edit</button>
            <button type="button" onClick={() => { test.reset(); test.mutate(); }} disabled={test.isPending || !w.active} aria-describedby={!w.active ? 'test-why' : undefined}>{test.isPending ? 'Sending…' : 'Send test'}</button>
            <ConfirmButton label="Regenerate secret" confirmLabel="Regenerate the secret" question="Receivers that check only X-Webhook-Signature refuse deliveries until they have the new secret."
              onConfirm={() => regenerate.mutate()} pending={regenerate.isPending} />
            <ConfirmButton label="Delete webhook" confirmLabel="Delete it and its log" question="Delete this webhook and its delivery log?" onConfirm={() => remove.mutate()} pending={remove.isPending} />
          </div>
          {!w.active && <p id="test-why" className="explain">An inactive webhook cannot be tested or redelivered: edit it and tick Active first.</p>}
          {test.isSuccess && <p className="small" role="status">A test delivery (page.updated with sample data) was queued; it appears in the log below.</p>}
          {(test.error ?? regenerate.error ?? remove.error) ? <p className="refusal" role="alert">{messageOf(test.error ?? regenerate.error ?? remove.error)}</p> : null}
        </div>
      )}

      <DeliveryLog project={project} id={id} active={w.active} />
    </section>
  );
}

function DeliveryLog({ project, id, active }: { project: string; id: string; active: boolean }) {
  const ids = useId();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: [project, 'deliveries', id, status, page],
    queryFn: () => apiData<Delivery[]>(`/webhooks/${encodeURIComponent(id)}/deliveries?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page), limit: String(pageSize) }).toString()}`, { project }),
    // While a delivery is on its way (pending in this view, or just queued by Send test or
    // Redeliver, which a status filter may hide), the log refreshes itself every 2 seconds;
    // otherwise every 15.
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'pending') || Date.now() < (queryClient.getQueryData<number>(watchKey(project, id)) ?? 0) ? 2000 : 15_000),
  });
  return (
    <div className="card" role="region" aria-labelledby={`${ids}-t`}>
      <div className="row">
        <h2 id={`${ids}-t`}>Delivery log</h2>
        <div className="field narrow">
          <label htmlFor={`${ids}-status`}>Status</label>
          <select id={`${ids}-status`} value={status} onChange={(e) => { setStatus(e.target.value as DeliveryStatus | ''); setPage(1); }}>{/* cast: the options are statuses */}
            <option value="">All</option>
            {statuses.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
        <button type="button" onClick={() => void queryClient.invalidateQueries({ queryKey: [project, 'deliveries', id] })} disabled={deliveries.isFetching}>
          {deliveries.isFetching && !deliveries.isPending ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {deliveries.isPending ? <Loading label="Loading the deliveries…" />
        : deliveries.isError ? <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
          : deliveries.data.length === 0 ? <EmptyState title={status ? `No ${status} deliveries` : 'No deliveries yet'}>{status ? 'Choose another status, or All.' : 'Send a test, or change some content this webhook listens to.'}</EmptyState>
            : (
              <ul className="team-list" aria-label="Deliveries">
                {deliveries.data.map((d) => <DeliveryRow key={d.id} project={project} hookId={id} d={d} active={active} />)}
              </ul>
            )}
      {(page > 1 || (deliveries.data?.length ?? 0) === pageSize) && (
        <div className="actions">
          <button type="button" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>Newer</button>
          <span className="muted">Page {page}</span>
          <button type="button" disabled={(deliveries.data?.length ?? 0) < pageSize} onClick={() => setPage((p) => p + 1)}>Older</button>
        </div>
      )}
    </div>
  );
}

function DeliveryRow({ project, hookId, d, active }: { project: string; hookId: string; d: Delivery; active: boolean }) {
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => apiData<Delivery>(`/webhooks/${encodeURIComponent(hookId)}/deliveries/${encodeURIComponent(d.id)}/redeliver`, { method: 'POST', project, body: {} }),
    onSuccess: () => {
      queryClient.setQueryData(watchKey(project, hookId), Date.now() + watchFor);
      void queryClient.invalidateQueries({ queryKey: [project, 'deliveries', hookId] });
    },
  });
  return (
    <li>
      <div className="item-head">
        <span className="item-title clip mono" title={d.event}>{d.event}</span>
        <span className={`pill ${d.status}`}>{d.status}</span>
      </div>
      <dl className="item-facts">
        <div><dt>Queued</dt><dd>{when(d.createdAt, true)}</dd></div>
        <div><dt>Attempts</dt><dd>{d.attemptCount}</dd></div>
        <div><dt>Last status</dt><dd>{d.lastStatusCode ?? '—'}</dd></div>
        {d.nextAttemptAt && <div><dt>{d.status === 'failed' ? 'Next retry' : 'Due'}</dt><dd>{when(d.nextAttemptAt, true)}</dd></div>}
        <div><dt>Delivery id</dt><dd title={d.id}><code>{d.id}</code></dd></div>
      </dl>
      {d.attempts.length > 0 && (
        <details>
          <summary>Attempts ({d.attempts.length})<span className="visually-hidden"> of the {d.event} delivery {d.id}</span></summary>
          <table className="attempts">
            <thead><tr><th className="n" scope="col">#</th><th className="time" scope="col">Time</th><th className="code" scope="col">Status</th><th className="dur" scope="col">Duration</th><th scope="col">Response or error</th></tr></thead>
            <tbody>
              {d.attempts.map((a) => (
                <tr key={a.attemptNumber}>
                  <td className="n">{a.attemptNumber}</td>
                  <td>{when(a.startedAt, true)}</td>
                  <td className="code"><span className={a.success ? 'pill success' : 'pill failed'}>{a.statusCode ?? 'none'}</span></td>
                  <td className="dur">{a.durationMs} ms</td>
                  <td>
                    {a.error && <p className="refusal">{a.error}</p>}
                    {a.responseBody ? <pre className="body-pre">{a.responseBody}</pre> : !a.error ? <span className="muted">(empty body)</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <div className="item-actions">
        <button type="button" onClick={() => { redeliver.reset(); redeliver.mutate(); }} disabled={!active || redeliver.isPending || d.status === 'pending'}
          aria-label={`Redeliver ${d.event} delivery ${d.id}`}>{redeliver.isPending ? 'Queuing…' : 'Redeliver'}</button>
        {redeliver.isSuccess && <span className="small" role="status">Queued again.</span>}
        {redeliver.isError && <p className="refusal" role="alert">{messageOf(redeliver.error)}</p>}
      </div>
    </li>
  );
}
