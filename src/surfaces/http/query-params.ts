/** Query-string reading for GET routes: numbers and lists are converted so the zod schemas see typed values. */
import type { Context } from 'hono';

/** A query parameter as a number when it looks like one, else as written (the schema then names the field). */
export function numParam(c: Context, name: string): number | string | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
}

/** A comma-separated query parameter as a list. */
export function listParam(c: Context, name: string): string[] | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === '') return undefined;
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A boolean query parameter (`true`/`1`). */
export function boolParam(c: Context, name: string): boolean | string | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === '') return undefined;
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v;
}
