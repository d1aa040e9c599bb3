import { aiAltText } from './alt-text.js';
import { aiSeo } from './seo.js';
import { aiSuggest } from './suggest.js';
import { aiUsageReport } from './usage.js';

/** The AI operations (docs/ai.md), by name; core/registry.ts merges them into the one table. */
export const aiOperations = {
  'ai.seo': aiSeo,
  'ai.suggest': aiSuggest,
  'ai.altText': aiAltText,
  'ai.usage': aiUsageReport,
} as const;
