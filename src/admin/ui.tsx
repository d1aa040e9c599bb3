import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from './api';
import { href, navigate } from './router';

// Shared pieces of every screen: links of the client router, the loading, empty and error states,
// and small helpers.

export function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/** A link click handled by the client router (modifier clicks open a tab as usual). */
export function link(to: string) {
  return (e: { preventDefault(): void; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; button: number }) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(to);
  };
}

export function Link({ to, children, className, current }: { to: string; children: ReactNode; className?: string; current?: boolean }) {
  return <a href={href(to)} onClick={link(to)} className={className} aria-current={current ? 'page' : undefined}>{children}</a>;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}


export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function FullPage({ children }: { children: ReactNode }) {
  return <main className="fullpage">{children}</main>;
}

export function Loading({ label }: { label: string }) {
  return <div className="state loading" role="status"><span className="spinner" aria-hidden="true" />{label}</div>;
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return <div className="state empty"><h2>{title}</h2><p>{children}</p></div>;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof ApiError
    ? error.status === 403 ? `You do not have access to this: ${error.message}` : `${error.message} (${error.code})`
    : 'The server could not be reached.';
  return (
    <div className="state error-state" role="alert">
      <h2>Something went wrong</h2>
      <p>{message}</p>
      {retry && <button type="button" onClick={retry}>Try again</button>}
    </div>
  );
}
