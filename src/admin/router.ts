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

// The browser's Back and Forward buttons ask before leaving a screen with unsaved changes: a screen
// sets a leave guard (returns true to leave); when the person stays, the address of the screen is put
// back (pushed again, so Back asks again next time). Registered when this module loads, before every
// screen's own popstate listener, so a refused move never reaches them.
let leaveGuard: (() => boolean) | null = null;
let shownUrl = typeof window === 'undefined' ? '' : window.location.pathname + window.location.search + window.location.hash;

/** Sets the guard asked before Back/Forward leaves the screen; returns the function that removes it. */
export function setLeaveGuard(guard: () => boolean): () => void {
  leaveGuard = guard;
  return () => { if (leaveGuard === guard) leaveGuard = null; };
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', (e) => {
    const to = window.location.pathname + window.location.search + window.location.hash;
    if (to !== shownUrl && leaveGuard && !leaveGuard()) {
      e.stopImmediatePropagation();
      window.history.pushState(null, '', shownUrl);
      return;
    }
    shownUrl = to;
  }, true);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = base + (to.startsWith('/') ? to : '/' + to);
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  shownUrl = window.location.pathname + window.location.search + window.location.hash;
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
