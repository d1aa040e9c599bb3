import { z } from 'zod';

export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugSchema = z.string().min(1).max(255).regex(slugPattern, 'must be lowercase letters, digits and single hyphens (like "my-page")');
