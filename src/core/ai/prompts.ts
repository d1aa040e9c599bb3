/**
 * Every prompt the AI features send, in one place (docs/ai.md quotes what leaves the machine).
 * The instructions are the `system` part; the material (the content, the text, the image) is the
 * user's message, built by the functions below. The answer's shape is fixed by each feature's
 * zod schema, which the library turns into the provider's structured-output request.
 */

/** How a language is named to the model: `French (fr)`. */
export const languageLabel = (name: string, code: string): string => (name === code ? code : `${name} (${code})`);

export const seoPrompt = {
  system: [
    'You write search-engine and social-media metadata for a web page or blog post.',
    'Answer with a JSON object with metaTitle, metaDescription, ogTitle and ogDescription.',
    'metaTitle: at most 60 characters, specific to this content, no site name, no quotes.',
    'metaDescription: at most 160 characters, one or two plain sentences that make a reader want to open the page.',
    'ogTitle: at most 60 characters, for social media previews; may equal metaTitle.',
    'ogDescription: at most 200 characters, for social media previews.',
    'Use only facts found in the content. Write in the language you are told to write in.',
  ].join('\n'),
  user: (input: { language: string; title: string; text: string }): string => [
    `Write in: ${input.language}`,
    `Title: ${input.title}`,
    'Content:',
    input.text,
  ].join('\n'),
};

export const suggestActions = ['improve', 'shorten', 'expand', 'fix', 'summarize', 'tone', 'translate', 'custom'] as const;
export type SuggestAction = (typeof suggestActions)[number];

/** What each action asks of the model, in words. */
const actionInstructions: Record<SuggestAction, (extra: { instruction?: string | undefined; language?: string | undefined }) => string> = {
  improve: () => 'Improve the text: clearer, more readable and more engaging, keeping its meaning and language.',
  shorten: () => 'Shorten the text to about half its length, keeping the essential meaning and its language.',
  expand: () => 'Expand the text with more detail and explanation, staying faithful to what it says, in its language.',
  fix: () => 'Fix spelling, grammar and punctuation only. Change nothing else.',
  summarize: () => 'Summarise the text in a few sentences, in its language.',
  tone: (x) => `Rewrite the text in this tone: ${x.instruction ?? 'neutral'}. Keep its meaning and language.`,
  translate: (x) => `Translate the text into ${x.language ?? 'English'}. Keep its meaning, tone and formatting.`,
  custom: (x) => x.instruction ?? 'Improve the text.',
};

export const suggestPrompt = {
  system: (input: { format: 'text' | 'html'; count: number }): string => [
    'You are an editor helping to write content for a website.',
    `Answer with a JSON object whose "suggestions" member is an array of ${input.count} different alternative version${input.count > 1 ? 's' : ''} of the text.`,
    input.format === 'html'
      ? 'The text is HTML. Answer in HTML using only these tags: p, h1-h6, blockquote, pre, code, ul, ol, li, br, hr, strong, b, em, i, u, s, del, a, span, img. No scripts, no styles.'
      : 'The text is plain text. Answer in plain text, without HTML or Markdown.',
    'Answer with the rewritten text only: no explanations, no quotes around it.',
  ].join('\n'),
  user: (input: { action: SuggestAction; instruction?: string | undefined; language?: string | undefined; contentLanguage: string | null; text: string }): string => [
    `Task: ${actionInstructions[input.action]({ instruction: input.instruction, language: input.language })}`,
    ...(input.action !== 'custom' && input.instruction && input.action !== 'tone' ? [`Also: ${input.instruction}`] : []),
    ...(input.contentLanguage && input.action !== 'translate' ? [`The content is written in ${input.contentLanguage}.`] : []),
    'Text:',
    input.text,
  ].join('\n'),
};

export const altTextPrompt = {
  system: [
    'You write alternative text (alt text) for images on a website, for people who cannot see them.',
    'Answer with a JSON object whose "altText" member describes the image in one short sentence of at most 125 characters.',
    'Describe what matters in the image; do not start with "Image of" or "Picture of".',
  ].join('\n'),
  user: (input: { language: string; filename: string }): string =>
    `Write the alt text in: ${input.language}\nThe file is named: ${input.filename}`,
};
