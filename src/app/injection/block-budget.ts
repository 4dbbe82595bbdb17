/** The session-start block as valued items in sections, fitted to a token budget by dropping whole items. */
import { countTokens, tokensAtMost } from '../../core/token-count.js';
import type { Layer } from '../../core/types.js';

/** Sections of the block, in the order they are shown (DESIGN §4: T0 with what the memory knows, T2, T2b, T3). */
export const SECTIONS = [
  { id: 'identity', title: 'Who I am', layer: 'T0' },
  { id: 'goal', title: 'Current goal', layer: 'T0' },
  { id: 'state', title: 'Latest state', layer: 'T0' },
  { id: 'threads', title: 'Open threads', layer: 'T0' },
  { id: 'briefing', title: 'Morning briefing', layer: 'T0' },
  { id: 'knows', title: 'What I know about working with you', layer: 'T0' },
  { id: 'problems', title: 'Open problems', layer: 'T0' },
  { id: 'review', title: 'Needs review', layer: 'T0' },
  { id: 'pool', title: 'Weighty recent memories', layer: 'T2' },
  { id: 'bridge', title: 'Last conversation', layer: 'T2b' },
  { id: 'map', title: 'Memory map', layer: 'T3' },
  { id: 'people', title: 'People', layer: 'T3' },
] as const;

/** One section id. */
export type SectionId = (typeof SECTIONS)[number]['id'];

/** One droppable unit of the block; a higher `value` is kept longer. */
export interface BlockItem {
  section: SectionId;
  /** The item as shown (may span lines, e.g. SOUL.md or a full profile). */
  text: string;
  value: number;
  /** The memory it shows, for the attention log and the no-repeat rule of prefetch. */
  ref?: { layer: Layer; id: number };
}

/** Block title line. */
export const BLOCK_TITLE = '# Memory (Tidepool)';

/** Renders kept items: sections in order, empty sections omitted; the map's topics share one line. */
export function renderBlock(items: readonly BlockItem[], notes: Partial<Record<SectionId, string>> = {}): string {
  const parts: string[] = [];
  for (const s of SECTIONS) {
    const mine = items.filter((i) => i.section === s.id);
    if (mine.length === 0) continue;
    const title = `## ${s.title}${notes[s.id] ? ` (${notes[s.id]})` : ''}`;
    const body = s.id === 'map' ? `Topics: ${mine.map((i) => i.text).join(' · ')}` : mine.map((i) => i.text).join('\n');
    parts.push(`${title}\n${body}`);
  }
  return parts.length === 0 ? '' : `${BLOCK_TITLE}\n\n${parts.join('\n\n')}\n`;
}

/** A fitted block. */
export interface FittedBlock {
  text: string;
  /** Its tokens (o200k); counted when first read where the text is within the budget in bytes. */
  readonly tokens: number;
  kept: BlockItem[];
  dropped: BlockItem[];
}

/**
 * Drops the lowest-valued items until the rendered block fits `maxTokens`: per-item costs pick the candidates,
 * the real tokenizer on the whole text decides. Items keep their order within a section; text is never cut.
 */
export function fitBlock(items: readonly BlockItem[], maxTokens: number, notes: Partial<Record<SectionId, string>> = {}): FittedBlock {
  let text = renderBlock(items, notes);
  // Within the budget by a bound that needs no tokenizer (tokensAtMost: its bytes, or its pieces), it is within it in
  // tokens: every item stays, and the tokenizer (~0.3 s to load) runs only if the count is read (the session-start
  // hook prints the text alone).
  if (tokensAtMost(text, maxTokens) <= maxTokens) {
    const whole = text;
    let counted: number | undefined;
    return {
      text: whole,
      get tokens() {
        return (counted ??= countTokens(whole));
      },
      kept: [...items],
      dropped: [],
    };
  }
  // Lowest value first; among equals the later item of a section goes first, so lists lose their tails.
  const dropOrder = items.map((item, i) => ({ item, i })).sort((a, b) => a.item.value - b.item.value || b.i - a.i);
  const cost = new Map(items.map((it) => [it, countTokens(it.text) + 1]));
  const gone = new Set<BlockItem>();
  let tokens = countTokens(text);
  let next = 0;
  while (tokens > maxTokens && next < dropOrder.length) {
    // Drop by estimate until the estimated excess is gone, then measure the real text again.
    let excess = tokens - maxTokens;
    while (excess > 0 && next < dropOrder.length) {
      const it = dropOrder[next++]!.item;
      gone.add(it);
      excess -= cost.get(it)!;
    }
    const kept = items.filter((it) => !gone.has(it));
    text = renderBlock(kept, notes);
    tokens = countTokens(text);
  }
  // Estimates overshoot at section boundaries; give back what still fits, most valuable first.
  let failedAt = Infinity;
  for (const { item } of [...dropOrder].reverse()) {
    const c = cost.get(item)!;
    // A line costs at least its own tokens less the couple a neighbour merge can save, and one no cheaper than a
    // line that just failed will fail too: both are skipped without rendering, so a long tail stays cheap.
    if (!gone.has(item) || c > maxTokens - tokens + 2 || c >= failedAt) continue;
    const trialText = renderBlock(items.filter((it) => !gone.has(it) || it === item), notes);
    const trialTokens = countTokens(trialText);
    if (trialTokens <= maxTokens) {
      gone.delete(item);
      text = trialText;
      tokens = trialTokens;
    } else failedAt = c;
  }
  return { text, tokens, kept: items.filter((it) => !gone.has(it)), dropped: items.filter((it) => gone.has(it)) };
}
