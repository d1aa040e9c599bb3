/**
 * The one slug pattern: lowercase letters and digits in runs joined by single hyphens
 * (`my-page`, `2024-recap`). Project, type, entry, blog and folder slugs all follow it.
 */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const isSlug = (value: string): boolean => slugPattern.test(value);
