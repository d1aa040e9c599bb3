import { useEffect, useState } from 'react';

// A small client router over the History API: paths are below /admin (the server answers
// index.html for every one of them).
const base = '/admin';

export function currentPath(): string {
  const p = window.location.pathname;
  const rest = p.startsWith(base) ? p.slice(base.length) : p;
  return (rest || '/') + window.location.search;
}

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = base + (to.startsWith('/') ? to : '/' + to);
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const l of listeners) l();
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((t) => t + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => { listeners.delete(update); window.removeEventListener('popstate', update); };
  }, []);
  return { path: window.location.pathname.slice(base.length) || '/', query: new URLSearchParams(window.location.search) };
}

export const href = (to: string) => base + to;
