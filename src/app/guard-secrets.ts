/** Refuses credentials on explicit writes and redacts them from automatic capture, in every field (DESIGN §10). */
import { TidepoolError } from '../core/errors.js';
import { remembered } from '../core/bounded-memo.js';
import { describeSecretKinds, findSecrets, redactSecrets } from '../script/secret-scan.js';

/** Throws `secret_refused` naming the kind of secret when any of `texts` holds a credential. */
export function refuseSecrets(field: string, ...texts: Array<string | undefined | null>): void {
  for (const t of texts) {
    if (!t) continue;
    const found = findSecrets(t);
    if (found.length > 0) {
      throw new TidepoolError(
        'secret_refused',
        `${field} contains ${describeSecretKinds(found)}; credentials are never stored. Store a reference instead ` +
          `(e.g. "the deploy key is in the team vault under prod/deploy").`,
        { field, details: { kinds: [...new Set(found.map((f) => f.kind))] } },
      );
    }
  }
}

/** Calls `visit` for every string in `value` (object keys included) with its path (`meta.db.url`, `tags.2`). */
function eachString(value: unknown, path: string, visit: (s: string, path: string) => void): void {
  // Iterative, so free JSON nested deep (already capped by the schemas) cannot overflow the stack.
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    if (typeof v === 'string') visit(v, p);
    else if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${p}.${i}`]));
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        const at = p ? `${p}.${k}` : k;
        visit(k, at);
        stack.push([x, at]);
      }
    }
  }
}

/**
 * Refuses a credential anywhere in a parsed input: every string field, every tag, every key and value of free
 * JSON. The error names the field path (`tags.1`, `meta.db`).
 * @example refuseSecretsIn({ text, key, subject, tags })
 */
export function refuseSecretsIn(fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields)) eachString(value, name, (s, p) => refuseSecrets(p, s));
}

/** Replaces credentials in captured text with `[secret:<kind>]` placeholders; returns how many were replaced. */
export function redact(text: string): { text: string; count: number } {
  const r = redactSecrets(text);
  return { text: r.text, count: r.findings.length };
}

/**
 * `redact` for a label that may be absent (speaker, session, tool, ref). The last few thousand labels' results are
 * remembered: a batch names the same speakers and sessions on every turn, and a scan costs as much for a short label
 * as for a turn's text (the scanner's fixed work).
 */
export function redactOptional(text: string | undefined, counter: { count: number }): string | undefined {
  if (text === undefined) return undefined;
  const r = text.length <= 200 ? remembered(labels, 4096, text, redact) : redact(text);
  counter.count += r.count;
  return r.text;
}

const labels = new Map<string, { text: string; count: number }>();

/** A copy of free JSON with credentials redacted in every string, keys included; `counter` counts them. */
export function redactJson<T>(value: T, counter: { count: number }): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = redact(v);
      counter.count += r.count;
      return r.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[walk(k) as string] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
