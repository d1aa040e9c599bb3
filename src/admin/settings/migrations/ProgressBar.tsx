import { percent, phaseLabel, type Progress } from './model';

/** The phase in words, `done of total`, and a bar (indeterminate while the total is unknown). */
export function ProgressBar({ progress, label }: { progress: Progress; label: string }) {
  const pct = percent(progress);
  const counts = progress.phase !== 'done' && progress.total > 0 ? ` ${progress.done} of ${progress.total}` : '';
  return (
    <div className="mig-progress">
      <span className="mig-phase clip">{phaseLabel(progress.phase)}{counts}</span>
      <progress aria-label={label} max={100} {...(pct === null ? {} : { value: pct })}>{pct === null ? '' : `${pct}%`}</progress>
    </div>
  );
}
