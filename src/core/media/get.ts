import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { findMedia } from './find.js';
import { toMediaView } from './view.js';

/** One media item's metadata. Media has no draft state, so preview keys change nothing here. */
export const getMedia = defineOperation({
  name: 'media.get',
  input: z.strictObject({ id: z.string().min(1).max(100) }),
  access: { role: 'viewer', key: 'read' },
  write: false,
  async run(ctx, input) {
    return toMediaView(ctx, await findMedia(ctx, input.id));
  },
});
