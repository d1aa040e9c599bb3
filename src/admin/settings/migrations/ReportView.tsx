import type { Discovery, Report, ReportType } from './model';
import { orderedStats, statLabel } from './model';

// The report a migration records once it has read the source (the dry run's whole answer): the
// types it would create, reuse or extend with their fields, what it counted, and its warnings.

type Kind = 'pageTypes' | 'collections' | 'components';
const kindLabels: Record<Kind, string> = { pageTypes: 'Page type', collections: 'Collection', components: 'Component' };

function changeOf(report: Report, kind: Kind, slug: string): string {
  const c = report.schemaChanges;
  const same = (x: { kind: string; slug: string }) => x.slug === slug && x.kind === kind;
  const ext = c?.extended?.find(same);
  if (ext) return `extend (+${ext.fields.length} field${ext.fields.length === 1 ? '' : 's'})`;
  if (c?.reused?.some(same)) return 'reuse';
  if (c?.created?.some(same)) return 'create';
  return '—';
}

function fieldsText(t: ReportType): string {
  return t.fields.map((f) => `${f.name} (${f.type})`).join(', ');
}

function discoveryText(d: Discovery | undefined): string {
  if (!d) return '—';
  const list = (xs: string[] | undefined) => (xs?.length ? xs.join(', ') : 'none');
  return `configured: ${list(d.configured)}; found in content: ${list(d.discovered)}` + (d.missing?.length ? `; unknown to the source: ${list(d.missing)}` : '');
}

export function ReportView({ report, dryRun }: { report: Report; dryRun: boolean }) {
  const rows: Array<{ kind: Kind; t: ReportType }> = [];
  for (const kind of ['pageTypes', 'collections', 'components'] as const) {
    for (const t of report.types?.[kind] ?? []) rows.push({ kind, t });
  }
  const counts = Object.entries(report.counts ?? {});
  const flat = orderedStats(Object.fromEntries(counts));
  const per = (name: string) => Object.entries((report.counts?.[name] as Record<string, number> | undefined) ?? {});
  const warnings = report.warnings ?? [];
  return (
    <section aria-labelledby="mig-report-h" className="mig-report">
      <h2 id="mig-report-h">{dryRun ? 'Dry-run report' : 'Report'}</h2>
      <p className="muted">{dryRun ? 'What a full migration would do. Nothing was written.' : 'What the migration planned after reading the source.'}</p>

      <h3>Schema</h3>
      {rows.length === 0 ? <p className="muted">No types found.</p> : (
        <div className="table-wrap">
          <table className="list mig-report-types">
            <caption className="visually-hidden">Types the migration {dryRun ? 'would create, reuse or extend' : 'creates, reuses or extends'}</caption>
            <thead>
              <tr>
                <th scope="col" className="mig-col-kind">Kind</th>
                <th scope="col" className="mig-col-slug">Slug</th>
                <th scope="col" className="mig-col-change">Change</th>
                <th scope="col" className="mig-col-nfields">Fields</th>
                <th scope="col" className="mig-col-fields">Field types</th>
                <th scope="col" className="mig-col-source">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ kind, t }) => (
                <tr key={`${kind}/${t.slug}`}>
                  <td>{kindLabels[kind]}</td>
                  <th scope="row" className="clip" title={t.slug}>{t.slug}</th>
                  <td className="clip mig-col-change">{changeOf(report, kind, t.slug)}</td>
                  <td className="mig-num mig-col-nfields">{t.fields.length}</td>
                  <td className="mig-fields" title={fieldsText(t)}><span className="mig-clamp">{fieldsText(t) || '—'}</span></td>
                  <td className="clip mig-col-source" title={t.source}>{t.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h3>Content found</h3>
      <div className="mig-counts">
        <div className="table-wrap">
          <table className="list">
            <caption className="visually-hidden">Counts read from the source</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col" className="mig-num">Count</th></tr></thead>
            <tbody>
              {flat.map(([k, v]) => <tr key={k}><th scope="row" className="clip">{statLabel(k)}</th><td className="mig-num">{v}</td></tr>)}
            </tbody>
          </table>
        </div>
        {[['pagesByType', 'Pages per page type', 'Page type'], ['itemsByCollection', 'Items per collection', 'Collection']].map(([name, caption, head]) => (
          per(name!).length === 0 ? null : (
            <div className="table-wrap" key={name}>
              <table className="list">
                <caption className="mig-caption">{caption}</caption>
                <thead><tr><th scope="col">{head}</th><th scope="col" className="mig-num">Count</th></tr></thead>
                <tbody>
                  {per(name!).map(([k, v]) => <tr key={k}><th scope="row" className="clip" title={k}>{k}</th><td className="mig-num">{v}</td></tr>)}
                </tbody>
              </table>
            </div>
          )
        ))}
      </div>

      {report.source && (
        <dl className="facts mig-discovery">
          <div className="mig-wide"><dt>Page types read</dt><dd>{discoveryText(report.source.pageTypes)}</dd></div>
          <div className="mig-wide"><dt>Collections read</dt><dd>{discoveryText(report.source.collections)}</dd></div>
        </dl>
      )}

      <h3>Warnings ({warnings.length})</h3>
      {warnings.length === 0 ? <p className="muted">No warnings.</p> : (
        <ul className="mig-warnings">
          {warnings.map((w, i) => <li key={i}>{w}</li>)}
        </ul>
      )}
    </section>
  );
}
