import { percent, phaseLabel, type Progress } from './model';

/** The phase in words (after "Stopped:" once paused or failed), `done of total`, and a bar (indeterminate while the total is unknown). */
export function ProgressBar({ progress, label, status }: { progress: Progress; label: string; status: string }) {
  // A paused or failed migration stays where it stopped: said so, not as if it were still at work.
  const stopped = status === 'paused' || status === 'failed' ? 'Stopped: ' : '';
  const pct = percent(progress);
  const counts = progress.phase !== 'done' && progress.total > 0 ? ` ${progress.done} of ${progress.total}` : '';
  return (
    <div className="mig-progress">
      <span className="mig-phase clip">{stopped}{phaseLabel(progress.phase)}{counts}</span>
      <progress aria-label={label} max={100} {...(pct === null ? {} : { value: pct })}>{pct === null ? '' : `${pct}%`}</progress>
    </div>
  );
}
