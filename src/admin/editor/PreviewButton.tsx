import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, apiData, type Role } from '../api';
import { Dialog } from './Dialog';
import { previewUrl } from './fieldDiff';
import './versions.css';

// Preview (docs/admin-app.md, "Preview"): the site's preview page from the URL template of the
// configuration (GET /api/v1/admin/settings), with a preview key of the project; without a
// template, the preview JSON of the public API in a dialog.
//
// A key's secret is shown only when it is created, so the app keeps the preview key it created
// (or one pasted by the member) in this browser's localStorage, per project. Creating keys needs
// the admin role; others are asked to paste a preview key an admin gave them.

interface Settings { preview: { url: string | null } }

const storageKey = (project: string) => `cms-admin:preview-key:${project}`;
const storedKey = (project: string): string | null => {
  try { return localStorage.getItem(storageKey(project)); } catch { return null; }
};
const storeKey = (project: string, key: string | null) => {
  try {
    if (key) localStorage.setItem(storageKey(project), key);
    else localStorage.removeItem(storageKey(project));
  } catch { /* storage off: the key lives as long as the page */ }
};

const isAdmin = (role: Role) => role === 'admin' || role === 'owner';

export function useAdminSettings(project: string) {
  return useQuery({ queryKey: [project, 'settings'], queryFn: () => apiData<Settings>('/settings', { project }), staleTime: 5 * 60_000 });
}

/** The public API's preview read of the entry, with the key: the JSON text, or why it failed. */
async function readPreview(target: { kind: 'page' | 'item'; type: string; slug: string; locale?: string | undefined }, key: string): Promise<{ ok: boolean; status: number; text: string }> {
  const path = target.kind === 'page'
    ? `/api/v1/pages/${encodeURIComponent(target.slug)}`
    : `/api/v1/collections/${encodeURIComponent(target.type)}/${encodeURIComponent(target.slug)}`;
  const res = await fetch(target.locale ? `${path}?locale=${encodeURIComponent(target.locale)}` : path, {
    headers: { accept: 'application/json', 'x-preview-key': key }, credentials: 'omit', cache: 'no-store',
  });
  const raw = await res.text();
  let text = raw;
  try { text = JSON.stringify(JSON.parse(raw), null, 2); } catch { /* not JSON: shown as it came */ }
  return { ok: res.ok, status: res.status, text };
}

export function PreviewButton({ project, role, kind, type, slug, id, locale, defaultLocale }: {
  project: string;
  role: Role;
  kind: 'page' | 'item';
  /** The page type or collection type slug. */
  type: string;
  slug: string;
  id: string;
  /** The locale being edited, in a project with several locales (the preview JSON is read with ?locale=). */
  locale?: string | undefined;
  /** The project's default locale: what {locale} of the template is when `locale` is absent. */
  defaultLocale?: string | undefined;
}) {
  const settings = useAdminSettings(project);
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState<string | null>(() => storedKey(project));
  const [pasted, setPasted] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [json, setJson] = useState<{ ok: boolean; status: number; text: string } | null>(null);
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);
  const template = settings.data?.preview.url ?? null;

  const urlFor = (k: string) => template ? previewUrl(template, { type, slug, id, locale: locale ?? defaultLocale ?? '', previewKey: k }) : null;

  /** A preview key: the stored one, or a new one when the role may create keys. */
  const ensureKey = async (): Promise<string | null> => {
    if (key) return key;
    if (!isAdmin(role)) return null;
    const created = await api<{ data: { key: string } }>('/keys', { method: 'POST', project, body: { type: 'preview', name: 'Admin app preview' } });
    storeKey(project, created.data.key);
    setKey(created.data.key);
    return created.data.key;
  };

  const show = async (k: string) => {
    const url = urlFor(k);
    if (url) {
      const w = window.open(url, '_blank');
      if (w) { w.opener = null; setOpen(false); } else { setBlockedUrl(url); setOpen(true); }
      return;
    }
    setOpen(true);
    setJson(null);
    const answer = await readPreview({ kind, type, slug, locale }, k);
    if (answer.status === 401) {
      // A revoked or unknown key: forget it, and ask again.
      storeKey(project, null);
      setKey(null);
      setMessage('The stored preview key no longer works (revoked?).');
      return;
    }
    setJson(answer);
  };

  const start = async () => {
    setBusy(true);
    setMessage(null);
    setBlockedUrl(null);
    try {
      const k = await ensureKey();
      if (!k) { setOpen(true); return; }
      await show(k);
    } catch (e) {
      setOpen(true);
      setMessage(e instanceof ApiError ? `${e.message} (${e.code})` : 'The server could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  const usePasted = async () => {
    const k = pasted.trim();
    if (!k.startsWith('preview_')) { setMessage('A preview key starts with preview_.'); return; }
    storeKey(project, k);
    setKey(k);
    setPasted('');
    setMessage(null);
    await show(k);
  };

  return (
    <>
      <button type="button" onClick={() => void start()} disabled={busy || settings.isPending} aria-haspopup="dialog">
        {busy ? 'Opening the preview…' : 'Preview'}
      </button>
      {open && (
        <Dialog title={template ? 'Preview' : 'Preview (JSON of the public API)'} onClose={() => setOpen(false)} wide={!template}>
          {message && <p className="error" role="alert">{message}</p>}
          {!key && (
            <div className="preview-key">
              <p>
                Preview needs a preview key of this project.{' '}
                {isAdmin(role)
                  ? 'One could not be created; try again, or paste one below.'
                  : `Your role (${role}) cannot create keys: ask an admin for a preview key (cms keys create --type preview) and paste it here. It is kept in this browser only.`}
              </p>
              <label className="field">
                <span>Preview key</span>
                <input type="password" autoComplete="off" value={pasted} onChange={(e) => setPasted(e.target.value)} placeholder="preview_…" data-autofocus />
              </label>
              <button type="button" onClick={() => void usePasted()} disabled={!pasted.trim()}>Use this key</button>
            </div>
          )}
          {key && blockedUrl && (
            <p>The browser blocked the new tab: <a href={blockedUrl} target="_blank" rel="noopener noreferrer">open the preview</a>.</p>
          )}
          {key && !template && (
            <>
              <p className="muted small">
                No preview URL is configured (preview.url in cms.config.json), so this is what the public API answers a
                preview key for this {kind === 'page' ? 'page' : 'item'}{locale ? ` in ${locale}` : ''}.
              </p>
              {!json && !message && <p role="status">Loading the preview…</p>}
              {json && !json.ok && <p className="error" role="alert">The public API answered {json.status}.</p>}
              {json && <pre className="json" tabIndex={0} aria-label="Preview JSON">{json.text}</pre>}
            </>
          )}
        </Dialog>
      )}
    </>
  );
}
