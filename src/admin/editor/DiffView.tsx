import { formatValue, textDiff } from './fieldDiff';
import './versions.css';

/** A value as text, in a scrolling box that keeps long values and nested JSON readable. */
export function ValueBox({ value, label }: { value: unknown; label: string }) {
  const text = formatValue(value);
  return (
    <pre className="value-box" tabIndex={0} aria-label={label}>
      {text === '' ? <span className="muted">(empty)</span> : text}
    </pre>
  );
}

/** A long unchanged run keeps its ends (the context of the changes) and says how much is left out. */
function collapse(text: string, first: boolean, last: boolean): string {
  const keep = 120;
  if (text.length <= keep * 2 + 40) return text;
  const head = first ? '' : text.slice(0, keep);
  const tail = last ? '' : text.slice(-keep);
  const left = text.length - head.length - tail.length;
  return `${head}${head ? ' ' : ''}[… ${left} unchanged characters …]${tail ? ' ' : ''}${tail}`;
}

/** Before and after of one value, with the removed parts struck through and the added ones marked. */
export function TextDiff({ before, after, label }: { before: unknown; after: unknown; label: string }) {
  const parts = textDiff(formatValue(before), formatValue(after));
  return (
    <pre className="value-box diff" tabIndex={0} aria-label={label}>
      {parts.length === 0 && <span className="muted">(empty)</span>}
      {parts.map((p, i) => p.op === 'same'
        ? <span key={i}>{collapse(p.text, i === 0, i === parts.length - 1)}</span>
        : p.op === 'add'
          ? <ins key={i}><span className="visually-hidden">[added: </span>{p.text}<span className="visually-hidden">]</span></ins>
          : <del key={i}><span className="visually-hidden">[removed: </span>{p.text}<span className="visually-hidden">]</span></del>)}
    </pre>
  );
}
