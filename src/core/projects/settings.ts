import { z } from 'zod';
import { defineOperation } from '../operation.js';

/** What the admin app needs from the server's configuration (docs/admin-app.md, "Preview"). */
export interface AdminSettings {
  /** The site's preview URL template (`preview.url` in cms.config.json, CMS_PREVIEW_URL), or null. */
  preview: { url: string | null };
}

export const getSettings = defineOperation({
  name: 'settings.get',
  input: z.strictObject({}),
  access: { role: 'viewer' },
  write: false,
  run: (ctx): Promise<AdminSettings> => Promise.resolve({ preview: { url: ctx.settings.previewUrl } }),
});
