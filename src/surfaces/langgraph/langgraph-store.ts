/**
 * Tidepool as a LangGraph.js store (`@langchain/langgraph` 1.x `BaseStore`): a graph compiled with
 * `{ store: new TidepoolStore(memory) }` reads and writes Tidepool memories through `config.store` (or `getStore()`).
 */
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from '@langchain/langgraph';
import type { KeyedEntry } from '../../app/keyed-knowledge.js';
import type { Tidepool } from '../../app/tidepool.js';
import { isTidepoolError } from '../../core/errors.js';
import type { KnowledgeKind } from '../../core/types.js';
import {
  checkNamespace,
  itemKey,
  itemText,
  meetsCondition,
  namespacePrefix,
  parseItemKey,
  passesFilter,
} from './store-keys.js';

/** Options of a `TidepoolStore`. */
export interface TidepoolStoreOptions {
  /** Prefix of every Tidepool key the store writes (default `langgraph:`): the store sees only keys under it. */
  keyPrefix?: string;
  /** Fields of a value that make the memory's searchable text when a put names none (default: every string in it). */
  fields?: string[];
  /** Knowledge kind of what the store writes (default `fact`). */
  kind?: KnowledgeKind;
}

/** What a stored item keeps beside its text, in the knowledge entry's `meta`. */
interface StoredValue {
  value: Record<string, unknown>;
  /** When the item was first put (later puts are new versions of the entry, each with its own creation time). */
  createdAt: number;
}

/** A search hit (LangGraph's `SearchItem`, which its package root does not export). */
type SearchItem = Item & { score?: number };

// Pages read while a filter drops items (search without a query).
const PAGE = 200;

/**
 * A LangGraph `BaseStore` over one Tidepool memory (one space). An item is keyed knowledge: namespace
 * `["users", "u1"]` and key `prefs` are the key `langgraph:users/u1/prefs`; the value is kept exactly as put, and its
 * text (the `index` fields, else every string) is what Tidepool indexes and recalls. A put of an existing key
 * supersedes it, keeping history; a delete forgets every version. Search with a `query` runs Tidepool's recall
 * (lexical, plus vectors when the memory has an embedder), restricted to the namespace in its candidate queries (a
 * key-prefix filter, so a small namespace among many others is found); without one it lists the
 * namespace, newest first. Filters and namespace matching follow LangGraph's `InMemoryStore`.
 * @example const graph = builder.compile({ store: new TidepoolStore(memory) });
 */
export class TidepoolStore extends BaseStore {
  readonly #memory: Tidepool;
  readonly #prefix: string;
  readonly #fields: string[] | undefined;
  readonly #kind: KnowledgeKind;

  constructor(memory: Tidepool, opts: TidepoolStoreOptions = {}) {
    super();
    this.#memory = memory;
    this.#prefix = opts.keyPrefix ?? 'langgraph:';
    this.#fields = opts.fields;
    this.#kind = opts.kind ?? 'fact';
  }

  /** Runs the operations in order; a failing one rejects the batch (the writes before it stay written). */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) {
      if ('value' in op) results.push(await this.#put(op));
      else if ('key' in op) results.push(await this.#get(op));
      else if ('namespacePrefix' in op) results.push(await this.#search(op));
      else results.push(await this.#listNamespaces(op));
    }
    return results as OperationResults<Op>;
  }

  #toItem(entry: KeyedEntry): Item | undefined {
    const at = parseItemKey(this.#prefix, entry.key);
    if (!at) return undefined;
    const stored = entry.meta.langgraph as StoredValue | undefined;
    return {
      namespace: at.namespace,
      key: at.key,
      // An entry written under this prefix by another surface (`tidepool remember --key`) reads as its text.
      value: stored?.value ?? { text: entry.content },
      createdAt: new Date(stored?.createdAt ?? entry.createdAt),
      updatedAt: new Date(entry.createdAt),
    };
  }

  async #get(op: GetOperation): Promise<Item | null> {
    checkNamespace(op.namespace);
    const entry = await this.#memory.getKeyed(itemKey(this.#prefix, op.namespace, op.key));
    return (entry && this.#toItem(entry)) ?? null;
  }

  async #put(op: PutOperation): Promise<void> {
    checkNamespace(op.namespace);
    const key = itemKey(this.#prefix, op.namespace, op.key);
    if (op.value === null) {
      await this.#memory.forget({ key }).catch((e: unknown) => {
        // Deleting what is not there is done already (LangGraph's stores treat it so).
        if (!isTidepoolError(e) || e.code !== 'not_found') throw e;
      });
      return;
    }
    const previous = await this.#memory.getKeyed(key);
    const first = (previous?.meta.langgraph as StoredValue | undefined)?.createdAt ?? previous?.createdAt;
    const stored: StoredValue = { value: op.value, createdAt: first ?? this.#memory.now() };
    await this.#memory.remember({
      text: itemText(op.value, op.index === false || op.index === undefined ? this.#fields : op.index),
      key,
      kind: this.#kind,
      meta: { langgraph: stored },
    });
  }

  async #search(op: SearchOperation): Promise<SearchItem[]> {
    checkNamespace(op.namespacePrefix, true);
    const prefix = namespacePrefix(this.#prefix, op.namespacePrefix);
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    if (op.query !== undefined && op.query.trim() !== '') {
      const found = await this.#memory.searchKeyed(prefix, op.query);
      const items = found.flatMap((e) => {
        const item = this.#toItem(e);
        return item && passesFilter(item.value, op.filter) ? [{ ...item, score: e.score }] : [];
      });
      return items.slice(offset, offset + limit);
    }
    const out: SearchItem[] = [];
    for (let from = 0; out.length < offset + limit; from += PAGE) {
      const page = await this.#memory.listKeyed(prefix, { limit: PAGE, offset: from });
      for (const e of page) {
        const item = this.#toItem(e);
        if (item && passesFilter(item.value, op.filter)) out.push(item);
      }
      if (page.length < PAGE) break;
    }
    return out.slice(offset, offset + limit);
  }

  async #listNamespaces(op: ListNamespacesOperation): Promise<string[][]> {
    const seen = new Map<string, string[]>();
    for (const key of await this.#memory.keysWithPrefix(this.#prefix)) {
      const at = parseItemKey(this.#prefix, key);
      if (!at || !(op.matchConditions ?? []).every((c) => meetsCondition(at.namespace, c))) continue;
      const ns = op.maxDepth === undefined ? at.namespace : at.namespace.slice(0, op.maxDepth);
      seen.set(JSON.stringify(ns), ns);
    }
    const all = [...seen.values()].sort((a, b) => a.join('\u0000').localeCompare(b.join('\u0000')));
    return all.slice(op.offset, op.offset + op.limit);
  }
}
