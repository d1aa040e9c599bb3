import type { Command } from 'commander';
import { suggestActions } from '../../core/ai/prompts.js';
import { choiceOption, chosen, countOption } from '../choices.js';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, table } from '../output.js';

/** `cms ai`: SEO proposals, suggestions for a text, alt text, and the usage report (docs/ai.md). */
export function registerAi(program: Command, state: ProgramState): void {
  const ai = program.command('ai').description('AI assistance: SEO proposals, text suggestions, alt text, usage (needs ai.* settings; docs/ai.md)');
  const { io } = state;

  ai.command('seo')
    .description('propose metaTitle, metaDescription, ogTitle and ogDescription from a draft (--apply writes them into the draft)')
    .option('--page <slug-or-id>', 'a page')
    .option('--post <slug-or-id>', 'a blog post')
    .option('--text <text>', 'a text given directly (with --title)')
    .option('--title <title>', 'the title that goes with --text')
    .option('--locale <code>', 'read the content in this locale and write in its language')
    .option('--apply', 'write the proposal into the draft\'s SEO (never publishes)')
    .addOption(countOption('--version <n>', 'with --apply on a page: the version the proposal is for', 1))
    .action(action(state, async (g, opts: { page?: string; post?: string; text?: string; title?: string; locale?: string; apply?: boolean; version?: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('ai.seo', {
        page: opts.page, post: opts.post, text: opts.text, title: opts.title, locale: opts.locale, apply: opts.apply === true,
        version: opts.version === undefined ? undefined : Number(opts.version),
      }));
      printResult(io, g, data, (d) => [
        `metaTitle:       ${d.metaTitle}`,
        `metaDescription: ${d.metaDescription}`,
        `ogTitle:         ${d.ogTitle}`,
        `ogDescription:   ${d.ogDescription}`,
        ...(d.applied
          ? [d.live
            ? 'Written into the blog post\'s SEO; the post is published, so the change is live.'
            : `Written into the draft's SEO${d.version ? ` (version ${d.version})` : ''}; not published.`]
          : []),
      ].join('\n'));
    }));

  ai.command('suggest')
    .description('suggest up to 3 alternatives for a text, textarea or wysiwyg field, or for --text')
    .option('--page <slug-or-id>', 'a page')
    .option('--collection <type>', 'a collection type (with --item)')
    .option('--item <slug-or-id>', 'a collection item')
    .option('--field <name>', 'the field of the page or item')
    .option('--text <text>', 'a text given directly')
    .addOption(choiceOption('--format <format>', 'the format of --text', ['text', 'html']))
    .addOption(choiceOption('--action <action>', 'what to do with the text', suggestActions).makeOptionMandatory())
    .option('--instruction <text>', 'the tone to take (tone), what to do (custom), or more guidance')
    .option('--language <language>', 'the language to translate into (translate)')
    .addOption(countOption('--count <n>', 'how many alternatives, 1 to 3 (default 1)', 1))
    .option('--locale <code>', 'read the field in this locale')
    .action(action(state, async (g, opts: {
      page?: string; collection?: string; item?: string; field?: string; text?: string; format?: string; action: string;
      instruction?: string; language?: string; count?: string; locale?: string;
    }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('ai.suggest', {
        page: opts.page, collection: opts.collection, item: opts.item, field: opts.field, text: opts.text,
        format: chosen(['text', 'html'], opts.format, '--format'), action: chosen(suggestActions, opts.action, '--action'),
        instruction: opts.instruction, language: opts.language, locale: opts.locale,
        count: opts.count === undefined ? undefined : Number(opts.count),
      }));
      printResult(io, g, data, (d) => d.suggestions.map((s, i) => (d.suggestions.length > 1 ? `${i + 1}. ${s}` : s)).join('\n\n'));
    }));

  ai.command('alt-text')
    .description('write alt text for an image of the media library (--apply saves it on the image)')
    .argument('<media-id>', 'the image\'s media id')
    .option('--locale <code>', 'write in this locale\'s language')
    .option('--apply', 'save the text as the image\'s alt text')
    .action(action(state, async (g, media: string, opts: { locale?: string; apply?: boolean }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('ai.altText', { media, locale: opts.locale, apply: opts.apply === true }));
      printResult(io, g, data, (d) => `${d.altText}${d.applied ? '\n(Saved as the image\'s alt text.)' : ''}`);
    }));

  ai.command('usage')
    .description('AI calls and tokens per month, and per member or key')
    .option('--month <yyyy-mm>', 'one month, like 2026-01 (default: the last 12 months)')
    .addOption(countOption('--months <n>', 'how many recent months (default 12)', 1))
    .action(action(state, async (g, opts: { month?: string; months?: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('ai.usage', {
        month: opts.month, months: opts.months === undefined ? undefined : Number(opts.months),
      }));
      printResult(io, g, data, (d) => [
        table(io, d.months, ['month', 'calls', 'failures', 'inputTokens', 'outputTokens'], 'No AI calls yet.'),
        ...(d.callers.length ? ['', table(io, d.callers.map((c) => ({ ...c, caller: c.kind === 'terminal' || c.kind === 'system' ? c.kind : `${c.kind} ${c.name ?? c.id ?? ''}` })),
          ['month', 'caller', 'calls', 'failures', 'inputTokens', 'outputTokens'], '')] : []),
      ].join('\n'));
    }));
}
