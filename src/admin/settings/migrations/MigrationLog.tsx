import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ErrorState, Loading } from '../../ui';
import { getLogs, logLevels, logLimit, type LogLevel } from './model';

const levelLabels: Record<string, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/** The migration's log, oldest first, filtered by level on the server; polled while it runs. */
export function MigrationLog({ project, id, live, stamp }: { project: string; id: string; live: boolean; stamp: string }) {
  const uid = useId();
  const [level, setLevel] = useState<LogLevel | ''>('');
  const logs = useQuery({
    queryKey: [project, 'migration', id, 'logs', level],
    queryFn: () => getLogs(project, id, level),
    refetchInterval: live ? 1500 : false,
  });
  // The record changed state (it finished, paused or failed): its last lines are read once more.
  const { refetch } = logs;
  useEffect(() => { void refetch(); }, [stamp, refetch]);
  const lines = logs.data ?? [];
  return (
    <section aria-labelledby={`${uid}-h`} className="mig-log">
      <div className="mig-log-head">
        <h2 id={`${uid}-h`}>Log</h2>
        <div className="field mig-inline">
          <label htmlFor={`${uid}-lvl`}>Level</label>
          <select id={`${uid}-lvl`} value={level} onChange={(e) => setLevel(e.target.value as LogLevel | '')}>
            <option value="">All levels</option>
            {logLevels.map((l) => <option key={l} value={l}>{levelLabels[l]}s only</option>)}
          </select>
        </div>
      </div>
      {logs.isPending ? <Loading label="Loading the log…" />
        : logs.error ? <ErrorState error={logs.error} retry={() => void logs.refetch()} />
          : lines.length === 0 ? <p className="muted">{level ? `No ${level} lines.` : 'The log is empty.'}</p>
            : (
              <>
                <ol className="mig-lines" tabIndex={0} aria-label={level ? `Log lines: ${level}` : 'Log lines'}>
                  {lines.map((l) => (
                    <li key={l.id} className={`mig-line mig-level-${l.level}`}>
                      <span className="mig-level">{levelLabels[l.level] ?? l.level}</span>
                      <time dateTime={l.createdAt} className="muted">{new Date(l.createdAt).toLocaleTimeString()}</time>
                      <span className="mig-message">{l.message}</span>
                    </li>
                  ))}
                </ol>
                {lines.length >= logLimit && <p className="muted">Showing the first {logLimit} lines; filter by level to see the others.</p>}
              </>
            )}
    </section>
  );
}
