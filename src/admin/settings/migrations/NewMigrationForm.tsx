import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../api';
import { navigate } from '../../router';
import { Link } from '../../ui';
import { createMigration, migrationAction, modes, parseList } from './model';
import { migrationPath, migrationsPath } from './paths';

/** Problems of a VALIDATION_FAILED answer by field path (`config.apiKey`, `mode`, …). */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: Record<string, string> = {};
  for (const d of error.details as Array<{ path?: unknown; message?: unknown }>) {
    if (typeof d.path === 'string' && typeof d.message === 'string') {
      const key = d.path.replace(/\.\d+$/, '');
      out[key] = out[key] ? `${out[key]}; ${d.message}` : d.message;
    }
  }
  return out;
}

/**
 * Creates a migration and starts it at once. The token lives in this form's state only until the
 * request is sent: it is cleared then, and the record the server answers is kept without it.
 */
export function NewMigrationForm({ project }: { project: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [mode, setMode] = useState('dry_run');
  const [apiKey, setApiKey] = useState('');
  const [apiUrl, setApiUrl] = useState('');
  const [pageTypes, setPageTypes] = useState('');
  const [collections, setCollections] = useState('');
  const [locales, setLocales] = useState('');
  const [missingKey, setMissingKey] = useState(false);

  const create = useMutation({
    mutationFn: async () => {
      const created = await createMigration(project, {
        mode, apiKey, apiUrl, pageTypes: parseList(pageTypes), collections: parseList(collections), locales: parseList(locales),
      });
      setApiKey('');
      // Created but not started (a 409 or the network): the migration's page offers Start.
      try { await migrationAction(project, created.id, 'start'); } catch { /* shown as pending there */ }
      return created;
    },
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: [project, 'migrations'] });
      navigate(migrationPath(project, created.id));
    },
  });

  const errors = fieldErrors(create.error);
  const keyError = missingKey ? 'Enter the ButterCMS read token.' : errors['config.apiKey'];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!apiKey.trim()) { setMissingKey(true); document.getElementById(`${id}-key`)?.focus(); return; }
    setMissingKey(false);
    create.mutate();
  };
  const described = (name: string, err: string | undefined) => [`${id}-${name}-help`, err ? `${id}-${name}-err` : ''].filter(Boolean).join(' ');

  return (
    <section aria-labelledby={`${id}-title`}>
      <p className="mig-back"><Link to={migrationsPath(project)}>← All migrations</Link></p>
      <h1 id={`${id}-title`}>New migration from ButterCMS</h1>
      <form className="card mig-form" onSubmit={submit} noValidate>
        <fieldset className="mig-modes">
          <legend>Mode</legend>
          {modes.map((m) => (
            <label key={m.value} className="mig-mode">
              <input type="radio" name="mode" value={m.value} checked={mode === m.value} onChange={() => setMode(m.value)} />
              <span><strong>{m.label}</strong> <span className="muted">{m.help}</span></span>
            </label>
          ))}
        </fieldset>

        <div className="field">
          <label htmlFor={`${id}-key`}>ButterCMS API token</label>
          <input
            id={`${id}-key`} type="password" autoComplete="off" spellCheck={false} value={apiKey}
            onChange={(e) => setApiKey(e.target.value)} aria-invalid={keyError ? true : undefined}
            aria-describedby={described('key', keyError)} required
          />
          <span id={`${id}-key-help`} className="muted">The account's read token. It is sent to the server once and never shown here again; deleting the migration removes it.</span>
          {keyError && <span id={`${id}-key-err`} className="error">{keyError}</span>}
        </div>

        <div className="field">
          <label htmlFor={`${id}-url`}>API URL (optional)</label>
          <input
            id={`${id}-url`} type="url" inputMode="url" placeholder="https://api.buttercms.com/v2" value={apiUrl}
            onChange={(e) => setApiUrl(e.target.value)} aria-invalid={errors['config.apiUrl'] ? true : undefined}
            aria-describedby={described('url', errors['config.apiUrl'])}
          />
          <span id={`${id}-url-help`} className="muted">Leave empty for ButterCMS itself.</span>
          {errors['config.apiUrl'] && <span id={`${id}-url-err`} className="error">{errors['config.apiUrl']}</span>}
        </div>

        <div className="mig-lists">
          <div className="field">
            <label htmlFor={`${id}-pt`}>Page types to read</label>
            <textarea
              id={`${id}-pt`} rows={3} value={pageTypes} onChange={(e) => setPageTypes(e.target.value)} placeholder="landing-page, product-page"
              aria-invalid={errors['config.pageTypes'] ? true : undefined} aria-describedby={described('pt', errors['config.pageTypes'])}
            />
            <span id={`${id}-pt-help`} className="muted">ButterCMS cannot list them: name them, separated by commas or lines.</span>
            {errors['config.pageTypes'] && <span id={`${id}-pt-err`} className="error">{errors['config.pageTypes']}</span>}
          </div>
          <div className="field">
            <label htmlFor={`${id}-col`}>Collections to read</label>
            <textarea
              id={`${id}-col`} rows={3} value={collections} onChange={(e) => setCollections(e.target.value)} placeholder="people, products"
              aria-invalid={errors['config.collections'] ? true : undefined} aria-describedby={described('col', errors['config.collections'])}
            />
            <span id={`${id}-col-help`} className="muted">Collection keys. Single pages, the blog and whatever content references are always read.</span>
            {errors['config.collections'] && <span id={`${id}-col-err`} className="error">{errors['config.collections']}</span>}
          </div>
        </div>

        <div className="field">
          <label htmlFor={`${id}-loc`}>Locales (optional)</label>
          <input
            id={`${id}-loc`} type="text" value={locales} onChange={(e) => setLocales(e.target.value)} placeholder="en, fr"
            aria-invalid={errors['config.locales'] ? true : undefined} aria-describedby={described('loc', errors['config.locales'])}
          />
          <span id={`${id}-loc-help`} className="muted">ButterCMS locale slugs to read, the first as the default. Empty: content is read without a locale.</span>
          {errors['config.locales'] && <span id={`${id}-loc-err`} className="error">{errors['config.locales']}</span>}
        </div>

        {create.error && (
          <p className="error" role="alert">
            {Object.keys(errors).length > 0 ? 'Not started: fix what is marked at the fields.'
              : create.error instanceof ApiError ? create.error.message : 'The server could not be reached.'}
          </p>
        )}
        <div className="mig-actions">
          <button type="submit" className="primary" disabled={create.isPending}>{create.isPending ? 'Starting…' : 'Start migration'}</button>
          <Link to={migrationsPath(project)} className="mig-button-link">Cancel</Link>
        </div>
      </form>
    </section>
  );
}
