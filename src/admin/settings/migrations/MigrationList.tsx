import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Link, Loading } from '../../ui';
import { formatTime, isLive, listMigrations, modeLabel, statusLabel } from './model';
import { migrationPath, migrationsPath } from './paths';
import { ProgressBar } from './ProgressBar';

/** Every migration of the project, newest first; refreshed every 2 s while one runs. */
export function MigrationList({ project }: { project: string }) {
  const list = useQuery({
    queryKey: [project, 'migrations'],
    queryFn: () => listMigrations(project),
    refetchInterval: (q) => (q.state.data?.some(isLive) ? 2000 : false),
  });
  const rows = [...(list.data ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <section aria-labelledby="mig-title">
      <div className="screen-head mig-head">
        <h1 id="mig-title">Migrations from ButterCMS</h1>
        <Link to={`${migrationsPath(project)}/new`} className="mig-button-link primary">New migration</Link>
      </div>
      <p className="muted">
        Bring a ButterCMS account's schema, pages, collection items, blog and media into this project. Start with a dry run:
        it reads everything and reports what it would create, without writing anything.
      </p>
      {list.isPending ? <Loading label="Loading migrations…" />
        : list.error ? <ErrorState error={list.error} retry={() => void list.refetch()} />
          : rows.length === 0 ? (
            <EmptyState title="No migrations yet">Start one with “New migration”: a dry run writes nothing.</EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="list mig-table" aria-busy={list.isFetching}>
                <caption className="visually-hidden">Migrations, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col" className="mig-col-created">Created</th>
                    <th scope="col" className="mig-col-mode">Mode</th>
                    <th scope="col" className="mig-col-status">Status</th>
                    <th scope="col" className="mig-col-started">Started</th>
                    <th scope="col">Progress</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((m) => (
                    <tr key={m.id}>
                      <td className="clip">
                        <Link to={migrationPath(project, m.id)}>
                          <span className="visually-hidden">{modeLabel(m.mode)} migration created </span>{formatTime(m.createdAt)}
                        </Link>
                        <span className="mig-mode-sub muted" aria-hidden="true">{modeLabel(m.mode)}</span>
                      </td>
                      <td className="clip mig-col-mode">{modeLabel(m.mode)}</td>
                      <td><span className={`badge mig-status mig-${m.status}`}>{statusLabel(m.status)}</span></td>
                      <td className="clip mig-col-started">{formatTime(m.startedAt)}</td>
                      <td><ProgressBar progress={m.progress} status={m.status} label={`Progress of the ${modeLabel(m.mode)} migration created ${formatTime(m.createdAt)}`} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
    </section>
  );
}
