/**
 * How LangGraph store items map onto Tidepool keys and text, and LangGraph's own filter and namespace-match rules
 * (those of its `InMemoryStore`), so a graph moved onto Tidepool sees the same answers. Pure: no I/O.
 */
import { TidepoolError } from '../../core/errors.js';

/** A namespace match as LangGraph's `listNamespaces` states it. */
export interface NamespaceCondition {
  matchType: 'prefix' | 'suffix';
  path: string[];
}

// '/' separates the segments of a key; a segment's own '/' and '%' are percent-encoded so the split is exact.
const encode = (s: string) => s.replaceAll('%', '%25').replaceAll('/', '%2F');
const decode = (s: string) => s.replace(/%2F|%25/g, (m) => (m === '%2F' ? '/' : '%'));

/** Refuses a namespace LangGraph would refuse on put: empty, or with an empty or non-string label. */
export function checkNamespace(namespace: readonly string[], allowEmpty = false): void {
  if (!Array.isArray(namespace) || (!allowEmpty && namespace.length === 0)) {
    throw new TidepoolError('invalid_input', 'namespace: must be a non-empty array of labels', {
      field: 'namespace',
    });
  }
  if (namespace.some((l) => typeof l !== 'string' || l.length === 0)) {
    throw new TidepoolError('invalid_input', 'namespace: every label must be a non-empty string', {
      field: 'namespace',
    });
  }
}

/** The Tidepool key of an item: `<prefix>users/u1/prefs` for namespace ["users", "u1"] and key "prefs". */
export function itemKey(prefix: string, namespace: readonly string[], key: string): string {
  return `${namespacePrefix(prefix, namespace)}${encode(key)}`;
}

/** The key prefix shared by every item in `namespace` and in the namespaces below it. */
export function namespacePrefix(prefix: string, namespace: readonly string[]): string {
  return prefix + namespace.map((l) => `${encode(l)}/`).join('');
}

/** The namespace and key a Tidepool key stands for (undefined when it is not under `prefix`). */
export function parseItemKey(
  prefix: string,
  stored: string,
): { namespace: string[]; key: string } | undefined {
  if (!stored.startsWith(prefix)) return undefined;
  const parts = stored.slice(prefix.length).split('/').map(decode);
  const key = parts.pop();
  return key === undefined || parts.length === 0 ? undefined : { namespace: parts, key };
}

/** Values at a dotted path (`a.b`); `[*]` after a name walks every element of an array; `$` is the whole value. */
function valuesAt(value: unknown, path: string): unknown[] {
  if (path === '$') return [value];
  let current: unknown[] = [value];
  for (const step of path.split('.')) {
    const each = step.endsWith('[*]');
    const name = each ? step.slice(0, -3) : step;
    current = current.flatMap((v) => {
      const child = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined;
      return each ? (Array.isArray(child) ? child : []) : child === undefined ? [] : [child];
    });
  }
  return current;
}

/** Every string, number and boolean inside `value`, depth first. */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (value === null || typeof value !== 'object') return [];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap(leaves);
}

/**
 * The text Tidepool stores and searches for a value: the leaves at `fields` (every leaf when none are named), one
 * per line. A value with no text at all is stored as its JSON, since a memory cannot be empty.
 */
export function itemText(value: Record<string, unknown>, fields: readonly string[] | undefined): string {
  const parts = (fields ?? ['$'])
    .flatMap((f) => valuesAt(value, f))
    .flatMap(leaves)
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length > 0 ? parts.join('\n') : JSON.stringify(value);
}

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

/** One filter condition against one field value, as LangGraph's InMemoryStore compares them. */
function matches(actual: unknown, wanted: unknown): boolean {
  const ops =
    wanted !== null && typeof wanted === 'object' && !Array.isArray(wanted) ? Object.entries(wanted) : [];
  if (ops.length === 0 || !ops.every(([k]) => OPERATORS.has(k))) return actual === wanted;
  return ops.every(([op, v]) => {
    switch (op) {
      case '$eq':
        return actual === v;
      case '$ne':
        return actual !== v;
      case '$gt':
        return Number(actual) > Number(v);
      case '$gte':
        return Number(actual) >= Number(v);
      case '$lt':
        return Number(actual) < Number(v);
      case '$lte':
        return Number(actual) <= Number(v);
      case '$in':
        return Array.isArray(v) && v.includes(actual);
      default:
        return !Array.isArray(v) || !v.includes(actual); // $nin
    }
  });
}

/** Whether an item's value passes a search filter (every top-level field condition holds). */
export function passesFilter(
  value: Record<string, unknown>,
  filter: Record<string, unknown> | undefined,
): boolean {
  return (
    filter === undefined || Object.entries(filter).every(([field, wanted]) => matches(value[field], wanted))
  );
}

/** Whether a namespace meets a prefix or suffix condition (`*` matches any one label). */
export function meetsCondition(namespace: readonly string[], c: NamespaceCondition): boolean {
  if (c.path.length > namespace.length) return false;
  const offset = c.matchType === 'prefix' ? 0 : namespace.length - c.path.length;
  return c.path.every((label, i) => label === '*' || namespace[offset + i] === label);
}
