/** ISO 8601 with milliseconds, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
