import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api';
import './team.css';

// Pieces shared by the API keys, Members, Account and Webhooks screens: dates, the API's message,
// an inline confirmation, and a value shown once with a copy button.

/** A date and time in the browser's locale, or a dash. */
export function when(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' });
}

/** The API's own message (with its code), or a plain sentence for a network failure. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'The server could not be reached. Check your connection and try again.';
}

/** A long value cut with an ellipsis, whole on hover. */
export function Clip({ children, className }: { children: string; className?: string }) {
  return <span className={className ? `clip ${className}` : 'clip'} title={children}>{children}</span>;
}

/**
 * A destructive action that asks a second time, inline: the first click shows "Confirm …" and
 * "Cancel" (the confirm button takes the focus; Escape cancels).
 */
export function ConfirmButton({ label, name, confirmLabel, question, onConfirm, disabled, pending, describedBy }: {
  label: string; name?: string; confirmLabel: string; question: string; onConfirm: () => void;
  disabled?: boolean; pending?: boolean; describedBy?: string | undefined;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) confirmRef.current?.focus(); }, [asking]);
  if (!asking) {
    return (
      <button ref={openRef} type="button" className="danger" disabled={disabled || pending} aria-label={name} aria-describedby={describedBy} onClick={() => setAsking(true)}>
        {pending ? 'Working…' : label}
      </button>
    );
  }
  const cancel = () => { setAsking(false); setTimeout(() => openRef.current?.focus(), 0); };
  return (
    <span className="confirm" role="group" aria-label={question} onKeyDown={(e) => { if (e.key === 'Escape') cancel(); }}>
      <span className="confirm-q">{question}</span>
      <button ref={confirmRef} type="button" className="danger" onClick={() => { setAsking(false); onConfirm(); }}>{confirmLabel}</button>
      <button type="button" onClick={cancel}>Cancel</button>
    </span>
  );
}

/**
 * A secret shown once: a read-only input (selected on focus, so it can be copied by hand) and a
 * Copy button (navigator.clipboard; where the browser refuses, the input is selected and the user
 * is told to press Ctrl+C / ⌘C).
 */
export function CopyField({ label, value, note }: { label: string; value: string; note?: ReactNode }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setStatus('Copied to the clipboard.');
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
      let copied = false;
      try { copied = document.execCommand('copy'); } catch { copied = false; }
      setStatus(copied ? 'Copied to the clipboard.' : 'The browser did not allow copying: the value is selected, press Ctrl+C (⌘C) to copy it.');
    }
  };
  return (
    <div className="copyfield">
      <label htmlFor={id}>{label}</label>
      <div className="copyrow">
        <input id={id} ref={inputRef} type="text" readOnly value={value} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>Copy<span className="visually-hidden"> {label.toLowerCase()}</span></button>
      </div>
      {note && <p className="muted small">{note}</p>}
      <p className="small" role="status">{status}</p>
    </div>
  );
}

/** A screen's title and its lead sentence. */
export function Head({ title, id, children }: { title: string; id: string; children?: ReactNode }) {
  return (
    <div className="team-head">
      <h1 id={id}>{title}</h1>
      {children && <p className="muted">{children}</p>}
    </div>
  );
}
