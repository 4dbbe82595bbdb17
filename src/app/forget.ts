/** `forget`: removes one item (by id or key) with every copy of its text, or erases a whole space, to the byte. */
import { TidepoolError } from '../core/errors.js';
import { parseId } from '../core/ids.js';
import type { Layer } from '../core/types.js';
import { forgetInput, parseInput, type ForgetInput } from '../core/schemas.js';
import type { ScopedStore, Store } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { spaceErased } from './require-space.js';
import { episodeIndexText } from './index-text.js';

/** What `forget` removed. */
export type ForgetResult =
  | { kind: 'item'; id: string; removed: number; copies: number }
  | { kind: 'key'; key: string; removed: number; copies: number }
  | { kind: 'space'; space: string };

type Targets = Record<Layer, Set<number>>;

/**
 * Deletes for real: forgetting is the user's right, not a status change. One implementation for every surface
 * (CLI, REST, MCP, library). An item goes with every copy of its text: all versions of a key, the episode
 * `remember` wrote beside each entry, other entries with the same text, the search-index rows (its own and the
 * preceding-turn context its session neighbours were indexed with), its vectors and the night's work records that
 * quote it. Then the store purges what its files keep of deleted rows (`Store.purge`, docs/RELIABILITY.md).
 */
export async function forget(ctx: AppContext, raw: ForgetInput): Promise<ForgetResult> {
  const input = parseInput(forgetInput, raw);
  if ('all' in input) {
    await ctx.store.transaction((tx) => tx.rows.eraseSpace(ctx.space));
    spaceErased(ctx);
    await purge(ctx, 'all');
    return { kind: 'space', space: ctx.space };
  }
  const named: Targets = { episode: new Set(), narrative: new Set(), knowledge: new Set() };
  const removed = await spaceTransaction(ctx, async (scope, tx) => {
    if ('key' in input) {
      for (const id of await scope.knowledge.idsByKey(input.key)) named.knowledge.add(id);
    } else {
      const { layer, id } = parseId(input.id);
      named[layer].add(id);
    }
    return eraseWithCopies(ctx, scope, tx, named);
  });
  if (removed.named === 0) {
    if ('key' in input) throw new TidepoolError('not_found', `no memory with key "${input.key}"`, { field: 'key' });
    throw new TidepoolError('not_found', `no item ${input.id} in space "${ctx.space}"`, { field: 'id' });
  }
  await purge(ctx, removed.layers);
  const counts = { removed: removed.named, copies: removed.total - removed.named };
  return 'key' in input ? { kind: 'key', key: input.key, ...counts } : { kind: 'item', id: input.id, ...counts };
}

/** Deletes `named` and the copies of their texts inside one transaction: rows named and found, all rows, layers touched. */
async function eraseWithCopies(ctx: AppContext, scope: ScopedStore, tx: Store, named: Targets): Promise<{ named: number; total: number; layers: Layer[] }> {
  const texts = new Set<string>();
  const episodes = await scope.episodes.getMany([...named.episode]);
  const knowledge = await scope.knowledge.getMany([...named.knowledge]);
  const narratives = await scope.narratives.getMany([...named.narrative]);
  for (const r of [...episodes, ...knowledge, ...narratives]) texts.add(r.content);
  // Copies: what `remember` wrote beside an entry (its episode, source 'remember') and entries with the same text.
  const copyTexts = [...episodes.filter((e) => e.source === 'remember'), ...knowledge].map((r) => r.content);
  const target: Targets = {
    episode: new Set([...episodes.map((e) => e.id), ...(await scope.episodes.idsWithContent(copyTexts, 'remember'))]),
    narrative: new Set(narratives.map((n) => n.id)),
    knowledge: new Set([...knowledge.map((k) => k.id), ...(await scope.knowledge.idsWithContent(copyTexts))]),
  };
  // The turns after a forgotten one were indexed with its text as their context (recall.contextTurns).
  const n = ctx.config.recall.contextTurns;
  const followers = new Set<number>();
  if (n > 0) {
    for (const e of await scope.episodes.getMany([...target.episode])) {
      texts.add(e.content);
      if (e.session === null) continue;
      for (const f of await scope.episodes.neighbours(e.id, n)) if (!target.episode.has(f.id)) followers.add(f.id);
    }
  }
  const total =
    (await scope.episodes.delete([...target.episode])) +
    (await scope.narratives.delete([...target.narrative])) +
    (await scope.knowledge.delete([...target.knowledge]));
  for (const id of [...followers].sort((a, b) => a - b)) {
    const e = await scope.episodes.get(id);
    if (!e) continue;
    await scope.episodes.reindex(id, episodeIndexText(e.content, e.speaker, await previousTurns(scope, id, n), ctx.config.index.episodeTrigram));
  }
  if (total > 0) await tx.rows.dropQuoting(scope.space, [...texts]);
  const layers = (Object.keys(target) as Layer[]).filter((l) => target[l].size > 0);
  return { named: episodes.length + knowledge.length + narratives.length, total, layers };
}

/** The `n` turns of the session before episode `id`, oldest first (the context `record` indexes a turn with). */
async function previousTurns(scope: ScopedStore, id: number, n: number): Promise<string[]> {
  const around = await scope.episodes.neighbours(id, n);
  const at = around.findIndex((e) => e.id === id);
  return at <= 0 ? [] : around.slice(0, at).map((e) => e.content);
}

async function purge(ctx: AppContext, layers: readonly Layer[] | 'all'): Promise<void> {
  const r = await ctx.store.purge(layers);
  if (!r.complete) ctx.warn('forget: another process kept the database log busy; the next forget or checkpoint clears what it still holds');
}
