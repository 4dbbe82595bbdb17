/** Query-string reading for GET routes: numbers and lists are converted so the zod schemas see typed values. */

/** A route's query string as the validator gives it: a name's values, one or several. */
export type QueryRecord = Record<string, string | string[] | undefined>;

/** The first value of a query parameter (as `c.req.query(name)` reads it); an empty one is absent. */
function first(q: QueryRecord, name: string): string | undefined {
  const v = q[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === '' ? undefined : s;
}

/** A query parameter as written, or undefined. */
export function strParam(q: QueryRecord, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A query parameter as a number when it looks like one, else as written (the schema then names the field). */
export function numParam(q: QueryRecord, name: string): number | string | undefined {
  const v = first(q, name);
  if (v === undefined) return undefined;
  return /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
}

/** A comma-separated query parameter as a list. */
export function listParam(q: QueryRecord, name: string): string[] | undefined {
  const v = first(q, name);
  if (v === undefined) return undefined;
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A boolean query parameter (`true`/`1`). */
export function boolParam(q: QueryRecord, name: string): boolean | string | undefined {
  const v = first(q, name);
  if (v === undefined) return undefined;
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v;
}


/** The query record a `z.preprocess` step receives (the validator always passes an object). */
export function queryOf(v: unknown): QueryRecord {
  return (typeof v === 'object' && v !== null ? v : {}) as QueryRecord;
}
