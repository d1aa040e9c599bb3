import { z } from 'zod';

import { slugPattern } from '../lib/slug.js';

export { slugPattern };

export const slugSchema = z.string().min(1).max(255).regex(slugPattern, 'must be lowercase letters, digits and single hyphens (like "my-page")');
