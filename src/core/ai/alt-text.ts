import { z } from 'zod';
import { CmsError, validationFailed } from '../errors.js';
import { checkAccess, defineOperation } from '../operation.js';
import { findMedia } from '../media/find.js';
import { rasterImageTypes } from '../media/sniff.js';
import { locationOf, mediaFilesOf } from '../media/storage.js';
import { updateMedia } from '../media/update.js';
import { callAi, providerOf } from './call.js';
import { altTextPrompt } from './prompts.js';
import { localeOf } from './source.js';
import { cutText } from '../../lib/cut-text.js';

/** The largest image sent to the provider (Anthropic takes 5 MB an image; most servers less). */
export const altTextMaxBytes = 5 * 1024 * 1024;
export const altTextMaxLength = 250;

export interface AltTextAnswer {
  altText: string;
  /** With `apply`: the alt text was written to the media item. */
  applied?: true;
}

/**
 * `POST /api/v1/ai/alt-text`, `cms ai alt-text`: alt text for an image of the media library, from
 * the image itself (its bytes and file name go to the provider). The model must accept images
 * (`ai.images`, on by default): when it is off the request is refused before any call. With
 * `apply` the text is written through the ordinary media update (a member's or the terminal's).
 */
export const aiAltText = defineOperation({
  name: 'ai.altText',
  input: z.strictObject({
    media: z.string().trim().min(1).max(100),
    locale: z.string().min(1).max(35).optional(),
    apply: z.boolean().default(false),
  }),
  access: { role: 'editor', key: 'ai:use' },
  write: false,
  async run(ctx, input): Promise<AltTextAnswer> {
    const provider = providerOf(ctx);
    const locale = localeOf(ctx, input.locale);
    const row = await findMedia(ctx, input.media);
    if (!rasterImageTypes.has(row.mimeType)) {
      throw validationFailed([{ path: 'media', message: `is ${row.mimeType}; alt text is written for PNG, JPEG, GIF, WebP and AVIF images` }]);
    }
    if (!provider.acceptsImages) {
      throw new CmsError('BAD_REQUEST', `The configured model (${provider.model}) is set not to accept images (ai.images is false); configure a model that reads images for alt text`);
    }
    if (row.size > altTextMaxBytes) {
      throw validationFailed([{ path: 'media', message: `is ${row.size} bytes; images sent for alt text are at most ${altTextMaxBytes}` }]);
    }
    if (input.apply) checkAccess(updateMedia, ctx.actor, ctx.project.id);
    const stream = await mediaFilesOf(ctx).open(locationOf(ctx, row.filename));
    const data = new Uint8Array(await new Response(stream).arrayBuffer());
    const { object } = await callAi(ctx, 'alt-text', {
      system: altTextPrompt.system,
      prompt: altTextPrompt.user({ language: locale.label, filename: row.originalFilename }),
      image: { data, mediaType: row.mimeType },
      schema: z.object({ altText: z.string().min(1) }),
      schemaName: 'alt_text',
    });
    const altText = cutText(object.altText.replace(/\s+/g, ' ').trim(), altTextMaxLength);
    if (!input.apply) return { altText };
    const answer: AltTextAnswer = { altText, applied: true };
    await ctx.runWrite(updateMedia, { id: row.id, altText }, answer);
    return answer;
  },
});
