// Reading values whose type the program does not know (thrown errors, driver results) without
// pretending to know it.

/** A property of an object of unknown shape; undefined for anything that is not an object. */
export function propertyOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

/** What a thrown value says: an Error's message, or the value as a string. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A record's own value under a name a user chose (a field's name): undefined when the record does
 * not hold it itself. A plain `record[name]` finds what every object inherits for names such as
 * `constructor` or `toString`, which made a required field so named look filled.
 */
export function ownValue(record: Record<string, unknown> | null | undefined, name: string): unknown {
  return record != null && Object.hasOwn(record, name) ? record[name] : undefined;
}
