/** `context`: the session-start block (T0 identity and what the memory knows, T2 pool, T2b bridge, T3 map) fitted to a token budget. */
import { z } from 'zod';
import { formatId } from '../../core/ids.js';
import { label, parseInput } from '../../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { noteHits } from '../recall.js';
import { fitBlock, SECTIONS, type BlockItem, type SectionId } from './block-budget.js';
import { labelLanguage } from './relative-time.js';
import { knowledgeItems } from './knowledge-items.js';
import { identityItems } from './t0-identity.js';
import { poolItems } from './t2-prefetch-pool.js';
import { bridgeItems } from './t2b-context-bridge.js';
import { profileItems, topicItems } from './t3-memory-map.js';

/** `context` input: the session it is injected into and the token budget (default `injection.maxTokens`). */
export const contextInput = z.object({
  session: label.optional(),
  maxTokens: z.number().int().min(1).max(200_000).optional(),
  /** Text of SOUL.md, read by the caller (surfaces and boot read files, the app does not). */
  soul: z.string().max(1_000_000).optional(),
});
/** Input of `context`. */
export type ContextInput = z.input<typeof contextInput>;

/** Options of {@link buildContext} beyond its input. */
export interface InjectOptions {
  /**
   * `false`: build the same block without writing anything (no `t0_inject`/`t1_prefetch` attention, no
   * reinforcement), for benchmarks that look without touching; rankings and text are unchanged. Default true.
   */
  sideEffects?: boolean;
}

/** The block and what went into it. */
export interface ContextBlock {
  /** Markdown; empty when the memory holds nothing to inject. */
  text: string;
  tokens: number;
  maxTokens: number;
  /** Sections shown, in order, with their layer (T0, T2, T2b, T3) and item count. */
  sections: Array<{ id: SectionId; layer: string; items: number }>;
  /** Items left out to fit the budget. */
  dropped: number;
  /** Memories shown (`n3`, `e12`…), logged as t0_inject. */
  injected: string[];
}

/**
 * Builds the block for a new session. Every memory it shows (narratives, knowledge, the bridge's turns) is logged as
 * `t0_inject` attention in the session, so per-turn prefetch will not repeat it.
 */
export async function buildContext(ctx: AppContext, raw: ContextInput = {}, opts: InjectOptions = {}): Promise<ContextBlock> {
  const input = parseInput(contextInput, raw ?? {});
  const maxTokens = input.maxTokens ?? ctx.config.injection.maxTokens;
  const lang = labelLanguage(ctx.config);
  const bridge = await bridgeItems(ctx, lang);
  const items: BlockItem[] = [
    ...(await identityItems(ctx, input.soul, lang)),
    ...(await knowledgeItems(ctx, lang)),
    ...(await poolItems(ctx)),
    ...bridge.items,
    ...(await topicItems(ctx)),
    ...(await profileItems(ctx)),
  ];
  const fitted = fitBlock(items, maxTokens, bridge.note ? { bridge: bridge.note } : {});
  // Every memory shown is logged, bridge turns included, so prefetch does not bring them again in this session.
  const shown = fitted.kept.filter((i) => i.ref !== undefined);
  if (shown.length > 0 && opts.sideEffects !== false) {
    const hits = shown.map((i) => ({ id: formatId(i.ref!.layer, i.ref!.id), score: 0 }));
    await noteHits(ctx, hits, 't0_inject', input.session ?? null, ctx.clock.now());
  }
  return {
    text: fitted.text,
    // Read through, so that a caller printing the text alone never counts it (fitBlock).
    get tokens() {
      return fitted.tokens;
    },
    maxTokens,
    sections: SECTIONS.map((s) => ({ id: s.id, layer: s.layer, items: fitted.kept.filter((i) => i.section === s.id).length })).filter((s) => s.items > 0),
    dropped: fitted.dropped.length,
    injected: shown.map((i) => formatId(i.ref!.layer, i.ref!.id)),
  };
}
