/** Test helper for the fuzz tests: hostile strings, inputs generated from a tool's JSON Schema, deep nesting, checks. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import type { Tidepool } from '../../src/app/tidepool.js';

/** Credentials the secret detector knows: refused by remember and journal_add, redacted by record. */
export const CREDENTIALS: readonly string[] = [
  'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd', 'password=hunter2hunter2', 'postgres://admin:s3cr3tPass@db.internal:5432/prod',
];

/** Strings that have broken search engines, SQL, parsers and terminals before (issue #6). */
export const HOSTILE_STRINGS: readonly string[] = [
  // FTS5 query syntax and quoting
  '"', '""', '"unterminated phrase', 'a"b', '*', 'foo*', '*foo', 'NEAR(', 'NEAR(a b, 2)', 'a AND b OR NOT c', 'AND', 'OR',
  'NOT', '^start', 'title:word', '{a b}:c', '(', ')', '()', '- a', '+b', ':', 'a:b:c', 'col0 MATCH x', '"a" "b"',
  // SQL fragments and LIKE wildcards
  "'; DROP TABLE episodes;--", "' OR '1'='1", 'Robert"); DROP TABLE knowledge;--', '%', '_', '%_%', '\\', '/*', '*/', '--',
  "1; ATTACH DATABASE '/tmp/x' AS x;--",
  // control characters, odd whitespace, BOM, zero width
  '\u0000', 'a\u0000b', '\u0001\u0002\u001f\u007f', '\r\n', '\n\n\n', '\t', '\u2028\u2029', '\ufeff', '\u200b', '\u001b[31mred\u001b[0m',
  // invalid UTF-16: lone and reversed surrogates
  '\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', 'x\udbff',
  // emoji and other scripts
  '😀', '👨‍👩‍👧‍👦', '𝕏𝕐', '中文记忆', '咖啡', '我第一次在凌晨调通了同步', 'العربية', 'Ω≈ç√', 'ﬁ', 'İ',
  // paths, templates, markup, prototype keys
  '../../etc/passwd', '/etc/passwd', '..', '.', 'C:\\Windows\\system32', '%00', '${jndi:ldap://x}', '{{7*7}}',
  '<script>alert(1)</script>', '__proto__', 'constructor', 'toString',
  // things that look like other types or values
  'NaN', 'null', 'undefined', 'true', '0', '-1', '1e309', '0x10', '2026-11-01', '2026-02-30', '9999-99-99', '1970-01-01T00:00:00Z',
  '25:99', '09:10', 'k1', 'e1', 'n1', 'k99999999999999999999',
  ...CREDENTIALS,
  // markdown the journal parses
  '   ', '# heading', '## 【09:00 x】', '---', '```',
];

/** The same hostile character repeated to about 100k characters. */
export const hugeString: fc.Arbitrary<string> = fc
  .constantFrom('x', '字', '😀', '"', 'NEAR( ', '\u0000', '\ud800', 'a b ')
  .map((s) => s.repeat(Math.ceil(100_000 / s.length)));

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** A hostile string: a known one, a mix of them, random code units (lone surrogates included), rarely ~100k chars. */
export function hostileString(opts: { huge?: boolean } = {}): fc.Arbitrary<string> {
  const parts = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 8 }), loneSurrogate);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: fc.array(parts, { minLength: 2, maxLength: 6 }).map((a) => a.join(' ')) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 5 }) },
    { weight: opts.huge === false ? 0 : 1, arbitrary: hugeString },
  );
}

/** Any JSON value, including hostile strings: the "wrong type" for most fields. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString({ huge: false }),
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0.5, 2 ** 53, -(2 ** 53), 1e308, '', [], {}, [null], { '': null }),
);

/** Builds a value nested `depth` levels deep, iteratively (a recursive builder would be the first to overflow). */
export function deepNest(depth: number, kind: 'object' | 'array' | 'mixed' = 'object'): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) {
    const asArray = kind === 'array' || (kind === 'mixed' && i % 2 === 1);
    v = asArray ? [v] : { a: v };
  }
  return v;
}

/** The subset of JSON Schema that MCP tool input schemas use here. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: unknown;
}

/** Generation knobs: `override` replaces the arbitrary of a named property (e.g. journal roots, wait times). */
export interface SchemaOptions {
  override?: Record<string, fc.Arbitrary<unknown>>;
}

function numberFrom(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1e6);
  const max = Math.min(s.maximum ?? 1e6, 1e9);
  const inRange = integer ? fc.integer({ min: Math.max(min, -1e9), max }) : fc.double({ min, max, noNaN: true });
  // Mostly valid values, so calls reach the use case; sometimes a boundary just outside, a fraction or a huge number.
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 0.5, -1, 1e308, 2 ** 53) },
  );
}

/** Values shaped by `schema` with hostile strings in every string field; enums mostly valid so deeper code runs. */
export function fromSchema(schema: JsonSchema, opts: SchemaOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => fromSchema(s, opts, depth)));
  if (schema.enum) {
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: hostileString({ huge: false }) });
  }
  switch (schema.type) {
    case 'string':
      return hostileString();
    case 'integer':
      return numberFrom(schema, true);
    case 'number':
      return numberFrom(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = schema.items ? fromSchema(schema.items, opts, depth + 1) : wrongValue;
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    case 'object': {
      if (schema.properties && Object.keys(schema.properties).length > 0) {
        const shape: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, s] of Object.entries(schema.properties)) shape[k] = (depth === 0 ? opts.override?.[k] : undefined) ?? fromSchema(s, opts, depth + 1);
        // Required keys are usually given (else every call fails on the first missing field), sometimes left out.
        return fc.oneof(
          { weight: 4, arbitrary: fc.record(shape, { requiredKeys: schema.required ?? [] }) },
          { weight: 1, arbitrary: fc.record(shape, { requiredKeys: [] }) },
        );
      }
      return fc.dictionary(hostileString({ huge: false }), wrongValue, { maxKeys: 4 });
    }
    default:
      return wrongValue;
  }
}

/** An object with the tool's own keys (and sometimes a stray one) holding values of arbitrary, mostly wrong, types. */
export function wrongTypes(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(schema.properties ?? {});
  const shape = Object.fromEntries(keys.map((k) => [k, wrongValue]));
  return fc
    .tuple(fc.record(shape, { requiredKeys: [] }), fc.option(fc.tuple(hostileString({ huge: false }), wrongValue), { nil: undefined }))
    .map(([o, extra]) => (extra && !keys.includes(extra[0]) ? { ...o, [extra[0]]: extra[1] } : o));
}

/** `s` as the store keeps it: each NUL and lone surrogate replaced by U+FFFD (store/sql-driver.ts). */
export function asStored(s: string): string {
  return s.replace(/\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Every string inside `v` (keys too), for scrubbing echoed input out of a message before looking for stack traces. */
export function stringsIn(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 50) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsIn(x, out, depth + 1);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      stringsIn(x, out, depth + 1);
    }
  }
  return out;
}

const STACK_FRAME = /\n\s*at\s+\S/;
const SOURCE_PATH = /(?:\/|\\|file:)(?:src|dist|node_modules)[/\\][\w@.\-/\\]+\.[cm]?[jt]s\b/;

/**
 * Why `message` is not a clear error for a client, or undefined when it is: empty, a stack frame, or a path into
 * our sources or node_modules. Input the caller sent (raw or JSON-escaped) is removed first, since messages may
 * quote it.
 */
export function unclearMessage(message: string, input: unknown = undefined): string | undefined {
  let m = message;
  const echoed = stringsIn(input)
    .flatMap((s) => [s, JSON.stringify(s).slice(1, -1), asStored(s)])
    .filter((s) => s.length >= 2)
    .sort((a, b) => b.length - a.length);
  for (const s of echoed) m = m.split(s).join('');
  if (message.trim().length === 0) return 'empty message';
  if (STACK_FRAME.test(m)) return `stack frame in message: ${message.slice(0, 500)}`;
  if (SOURCE_PATH.test(m)) return `source path in message: ${message.slice(0, 500)}`;
  return undefined;
}

/** A digest of the whole space (its export): equal digests mean an unchanged store. */
export async function storeDigest(memory: Tidepool): Promise<string> {
  const h = createHash('sha256');
  for await (const line of memory.export()) h.update(line).update('\n');
  return h.digest('hex');
}

/** A digest of every path, file content and link target under `dir` (links are not followed); '' when it is missing. */
export function treeDigest(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      const st = lstatSync(p);
      h.update(`${rel}/${n}:${st.isDirectory() ? 'd' : st.isSymbolicLink() ? `l>${readlinkSync(p)}` : 'f'}\n`);
      if (st.isDirectory()) walk(p, `${rel}/${n}`);
      else if (st.isFile()) h.update(readFileSync(p));
    }
  };
  walk(dir, '');
  return h.digest('hex');
}

/**
 * Keeps a hostile path inside the test's temp folder: one that resolves (from `cwd`) outside `base` becomes a
 * missing folder under `cwd`. The tests run as any user, root included, and a journal root such as "/" or "../.."
 * on an unconfined surface (the local CLI, the tokenless HTTP user) would otherwise lay out memory/ there.
 */
export function keepInside(base: string, cwd: string, p: string): string {
  const rel = relative(base, resolve(cwd, p));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? p : join('absent-folder', p.replace(/[/\\.]/g, '_'));
}

/** Rejects when `p` does not settle within `ms`: a hang becomes a failing example instead of a stuck test. */
export async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Short description of an input for failure messages (huge strings abbreviated). */
export function describeInput(v: unknown): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' && x.length > 80 ? `${x.slice(0, 40)}…(${x.length} chars)` : x));
  } catch {
    return '(nested too deep to print)';
  }
  return s === undefined ? String(v) : s.length > 2000 ? `${s.slice(0, 2000)}…` : s;
}
