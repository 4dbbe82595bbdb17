/**
 * Keyed knowledge read as a key-value store: the live entry of a key, the live entries under a key prefix, and a
 * recall restricted to a key prefix. The writes are `remember` (with a key) and `forget` (by key).
 */
import { formatId, parseId } from '../core/ids.js';
import type { Knowledge } from '../core/types.js';
import type { AppContext } from './app-context.js';
import { recall } from './recall.js';

/** One live keyed entry. */
export interface KeyedEntry {
  id: string;
  key: string;
  content: string;
  /** The structured data `remember` kept with it (`{}` when none). */
  meta: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** A keyed entry found by a query, with its recall score. */
export interface ScoredKeyedEntry extends KeyedEntry {
  score: number;
}

// recall answers at most this many hits (core/schemas recallInput.limit).
const RECALL_MAX = 200;

function toEntry(k: Knowledge): KeyedEntry {
  return {
    id: formatId('knowledge', k.id),
    key: k.key ?? '',
    content: k.content,
    meta: k.meta,
    createdAt: k.createdAt,
    updatedAt: k.updatedAt,
  };
}

/** The live entry with `key`, or undefined. */
export async function getKeyed(ctx: AppContext, key: string): Promise<KeyedEntry | undefined> {
  const k = await ctx.scope.knowledge.getLiveByKey(key);
  return k ? toEntry(k) : undefined;
}

/** Live entries whose key starts with `prefix`, most recently updated first. */
export async function listKeyed(
  ctx: AppContext,
  prefix: string,
  page: { limit: number; offset?: number },
): Promise<KeyedEntry[]> {
  return (await ctx.scope.knowledge.listLiveByKeyPrefix(prefix, page)).map(toEntry);
}

/** Every live key that starts with `prefix`, in key order. */
export function keysWithPrefix(ctx: AppContext, prefix: string): Promise<string[]> {
  return ctx.scope.knowledge.liveKeysWithPrefix(prefix);
}

/**
 * Recall over knowledge, keeping the live entries whose key starts with `prefix`, best first. The hits reinforce
 * their entries and are logged as attention like any recall. The prefix is a filter of recall's candidate queries
 * (`RecallOptions.keyPrefix`), so a namespace of few entries among many others is still found; at most 200 hits.
 */
export async function searchKeyed(
  ctx: AppContext,
  prefix: string,
  query: string,
): Promise<ScoredKeyedEntry[]> {
  // A space nothing was written to holds nothing to find (recall would refuse it as a mistyped space).
  if (!(await ctx.store.spaces.exists(ctx.space))) return [];
  const hits = await recall(ctx, { query, layers: ['knowledge'], limit: RECALL_MAX }, { keyPrefix: prefix });
  const rows = await ctx.scope.knowledge.getMany(
    hits.map((h) => parseId(h.id).id),
  );
  const byId = new Map(rows.map((k) => [formatId('knowledge', k.id), k]));
  const out: ScoredKeyedEntry[] = [];
  for (const h of hits) {
    const k = byId.get(h.id);
    if (k?.key?.startsWith(prefix) && k.status !== 'superseded' && k.status !== 'forgotten')
      out.push({ ...toEntry(k), score: h.score });
  }
  return out;
}
