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
