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

/** Before and after of one value, with the removed parts struck through and the added ones marked. */
export function TextDiff({ before, after, label }: { before: unknown; after: unknown; label: string }) {
  const parts = textDiff(formatValue(before), formatValue(after));
  return (
    <pre className="value-box diff" tabIndex={0} aria-label={label}>
      {parts.length === 0 && <span className="muted">(empty)</span>}
      {parts.map((p, i) => p.op === 'same'
        ? <span key={i}>{p.text}</span>
        : p.op === 'add'
          ? <ins key={i}><span className="visually-hidden">[added: </span>{p.text}<span className="visually-hidden">]</span></ins>
          : <del key={i}><span className="visually-hidden">[removed: </span>{p.text}<span className="visually-hidden">]</span></del>)}
    </pre>
  );
}
