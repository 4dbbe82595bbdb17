/** `recall`: ranked hits over every layer; each hit reinforces its knowledge and is logged as attention. */
import { parseInput, recallInput, type RecallInput } from '../core/schemas.js';
import type { AttentionSource, RecallHit } from '../core/types.js';
import { parseId } from '../core/ids.js';
import { runRecall } from '../retrieval/recall-pipeline.js';
import type { AppContext } from './app-context.js';
import { requireSpace } from './require-space.js';

/** Options of a recall beyond its input. */
export interface RecallOptions {
  /** Attention source of the hits (recall by default; injection passes t0_inject/t1_prefetch). */
  source?: AttentionSource;
  /** Session the hits are shown in (prefetch never repeats an item within it). */
  session?: string;
  /** Skip reinforcement and attention logging (benchmarks, dry runs). */
  sideEffects?: boolean;
}

/** Searches the memory; quarantined knowledge never appears. */
export async function recall(ctx: AppContext, raw: RecallInput, opts: RecallOptions = {}): Promise<RecallHit[]> {
  const input = parseInput(recallInput, raw);
  await requireSpace(ctx);
  const now = ctx.clock.now();
  const hits = ctx.readers
    ? await ctx.readers.recall(ctx.space, input, now, ctx.embedder)
    : await runRecall({ store: ctx.store, config: ctx.config, embedder: ctx.embedder, now }, ctx.space, input);
  if (opts.sideEffects !== false && hits.length > 0) await noteHits(ctx, hits, opts.source ?? 'recall', opts.session ?? null, now);
  return hits;
}

/** Reinforces the knowledge among `hits` and writes every hit to the attention log, in one transaction. */
export async function noteHits(
  ctx: AppContext,
  hits: readonly Pick<RecallHit, 'id' | 'score'>[],
  source: AttentionSource,
  session: string | null,
  now: number,
): Promise<void> {
  const parsed = hits.map((h) => ({ ...parseId(h.id), sim: h.score }));
  const knowledge = parsed.filter((p) => p.layer === 'knowledge').map((p) => p.id);
  await ctx.store.transaction(async (tx) => {
    if (knowledge.length > 0) await tx.knowledge.reinforce(ctx.space, knowledge, ctx.config.recall.reinforceStep, now);
    await tx.attention.log(
      ctx.space,
      parsed.map((p) => ({ layer: p.layer, itemId: p.id, sim: p.sim, cluster: null, source, session, at: now })),
    );
  });
}
