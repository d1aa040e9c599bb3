import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { navigate } from '../../router';
import { EmptyState, ErrorState, Link, Loading } from '../../ui';
import { MigrationLog } from './MigrationLog';
import { ReportView } from './ReportView';
import {
  deleteMigration, formatTime, getMigration, isLive, migrationAction, modeLabel, orderedStats, statLabel, statusLabel, type Migration,
} from './model';
import { migrationsPath } from './paths';
import { ProgressBar } from './ProgressBar';

const pollMs = 1000;

function errorText(e: unknown): string {
  return e instanceof ApiError ? e.message : 'The server could not be reached.';
}

function NameList({ names }: { names: string[] | undefined }) {
  if (!names?.length) return <span className="muted">none</span>;
  return <span className="mig-names" title={names.join(', ')}>{names.join(', ')}</span>;
}

/** One migration: live progress (polled every second while it runs), pause, start, delete, stats, report and log. */
export function MigrationDetail({ project, id }: { project: string; id: string }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const key = [project, 'migration', id];
  const query = useQuery({
    queryKey: key,
    queryFn: () => getMigration(project, id),
    refetchInterval: (q) => (q.state.data && isLive(q.state.data) ? pollMs : false),
    retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
  });
  const m = query.data;
  const live = m ? isLive(m) : false;
  const refresh = async (next?: Migration) => {
    if (next) queryClient.setQueryData(key, next);
    await queryClient.invalidateQueries({ queryKey: [project, 'migrations'] });
    await queryClient.invalidateQueries({ queryKey: key });
  };
  const action = useMutation({
    mutationFn: (a: 'start' | 'pause') => migrationAction(project, id, a),
    onSuccess: (next) => refresh(next),
    onError: () => refresh(),
  });
  // When a run ends (and wrote types and entries), the navigation's types and counts are read again.
  const wasLive = useRef(false);
  useEffect(() => {
    if (wasLive.current && !live && m?.mode !== 'dry_run') {
      for (const k of ['page-types', 'collection-types', 'count']) void queryClient.invalidateQueries({ queryKey: [project, k] });
    }
    wasLive.current = live;
  }, [live, m?.mode, project, queryClient]);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (confirming) confirmRef.current?.focus(); }, [confirming]);
  const remove = useMutation({
    mutationFn: () => deleteMigration(project, id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: key });
      await queryClient.invalidateQueries({ queryKey: [project, 'migrations'] });
      navigate(migrationsPath(project));
    },
  });

  const back = <p className="mig-back"><Link to={migrationsPath(project)}>← All migrations</Link></p>;
  if (query.isPending) return <>{back}<Loading label="Loading the migration…" /></>;
  if (query.error || !m) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return <>{back}<EmptyState title="Migration not found">It was deleted, or it belongs to another project.</EmptyState></>;
    }
    return <>{back}<ErrorState error={query.error} retry={() => void query.refetch()} /></>;
  }

  const stats = orderedStats(m.stats);
  const title = `${modeLabel(m.mode)} migration`;
  return (
    <section aria-labelledby={headingId} className="mig-detail">
      {back}
      <div className="screen-head mig-head">
        <h1 id={headingId} className="clip">{title}</h1>
        <span className={`badge mig-status mig-${m.status}`}>{statusLabel(m.status)}</span>
      </div>

      <dl className="facts">
        <div><dt>Mode</dt><dd>{modeLabel(m.mode)}</dd></div>
        <div><dt>Created</dt><dd>{formatTime(m.createdAt)}</dd></div>
        <div><dt>Started</dt><dd>{formatTime(m.startedAt)}</dd></div>
        <div><dt>Finished</dt><dd>{formatTime(m.finishedAt)}</dd></div>
        <div className="mig-wide"><dt>API URL</dt><dd className="clip" title={m.config.apiUrl ?? ''}>{m.config.apiUrl ?? 'https://api.buttercms.com/v2 (default)'}</dd></div>
        <div className="mig-wide"><dt>Page types configured</dt><dd className="clip"><NameList names={m.config.pageTypes} /></dd></div>
        <div className="mig-wide"><dt>Collections configured</dt><dd className="clip"><NameList names={m.config.collections} /></dd></div>
        {m.config.locales?.length ? <div><dt>Locales</dt><dd className="clip"><NameList names={m.config.locales} /></dd></div> : null}
        <div><dt>API token</dt><dd className="muted">stored, not shown</dd></div>
      </dl>

      <div className="card mig-live" aria-labelledby={`${headingId}-p`} role="region">
        <h2 id={`${headingId}-p`}>Progress</h2>
        <div aria-live="polite">
          <ProgressBar progress={m.progress} status={m.status} label={`${title} progress`} />
          {m.pauseRequested && live && <p className="muted">Pause requested: it stops after the current batch.</p>}
          {m.status === 'paused' && <p className="muted">Paused. A paused migration cannot be resumed: start a new one to import again.</p>}
          {m.status === 'completed' && <p className="mig-ok">Completed{m.mode === 'dry_run' ? ': nothing was written. The report is below.' : '.'}</p>}
        </div>
        {m.error && <p className="error mig-error" role="alert">{m.error}</p>}
        <div className="mig-actions">
          {m.status === 'pending' && (
            <button type="button" className="primary" onClick={() => action.mutate('start')} disabled={action.isPending}>Start</button>
          )}
          {live && (
            <button type="button" onClick={() => action.mutate('pause')} disabled={action.isPending || m.pauseRequested}>
              {m.pauseRequested ? 'Pausing…' : 'Pause'}
            </button>
          )}
          {!confirming ? (
            <button
              type="button" className="danger" onClick={() => setConfirming(true)} disabled={live}
              aria-describedby={live ? `${headingId}-del-why` : undefined}
            >Delete…</button>
          ) : (
            <div className="mig-confirm" role="group" aria-label="Confirm delete">
              <span>Delete this migration, its log and the stored API token? Imported content stays.</span>
              <button ref={confirmRef} type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                {remove.isPending ? 'Deleting…' : 'Delete migration'}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
            </div>
          )}
        </div>
        {live && <p id={`${headingId}-del-why`} className="muted mig-note">A running migration cannot be deleted: pause it, wait until it is paused, then delete it.</p>}
        {action.error && <p className="error" role="alert">{errorText(action.error)}</p>}
        {remove.error && <p className="error" role="alert">{errorText(remove.error)}</p>}
      </div>

      {stats.length > 0 && (
        <>
          <h2>Counts</h2>
          <div className="table-wrap mig-narrow">
            <table className="list">
              <caption className="visually-hidden">What this migration wrote and read</caption>
              <thead><tr><th scope="col">Kind</th><th scope="col" className="mig-num">Count</th></tr></thead>
              <tbody>
                {stats.map(([k, v]) => <tr key={k}><th scope="row" className="clip">{statLabel(k)}</th><td className="mig-num">{v}</td></tr>)}
              </tbody>
            </table>
          </div>
        </>
      )}

      {m.report && <ReportView report={m.report} dryRun={m.mode === 'dry_run'} />}

      <MigrationLog project={project} id={id} live={live} stamp={`${m.status} ${m.progress.phase} ${m.pauseRequested}`} />
    </section>
  );
}
