/** Drops the undefined entries of an object: zod's strict objects want optional fields absent, not undefined. */

/**
 * Copies the defined entries only, so a strict schema downstream sees just what the caller sent.
 * @example defined({ a: 1, b: undefined }) // { a: 1 }
 */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
