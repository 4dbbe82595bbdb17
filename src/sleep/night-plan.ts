/** Plans a night: the episode-partitioned units (solidify batches, librarian groups) fitted into the budget, then the fixed steps. */

import type { Episode } from '../core/types.js';
import { scanUnindexed } from '../script/layer0-scan.js';
import { planSleepWork, type WorkPacket } from '../script/sleep-budget-policy.js';
import { groupEpisodes } from './group-episodes.js';
import { estimateTokens } from './llm/token-estimate.js';
import type { NightContext } from './night-context.js';
import type { NightStep } from './night-types.js';
import { LIBRARIAN_EPISODE_CHARS, librarianPrompt } from './phases/librarian-phase.js';
import type { PlannedUnit } from './phases/phase.js';
import { knownTags, solidifyChunks } from './phases/solidify-phase.js';
import { buildSolidifyPrompt } from './prompts/solidify-prompt.js';
import { clip, estimatePromptTokens } from './prompts/prompt.js';

/** Turns per solidify call: about 2,000 prompt tokens of conversation, so the system prompt is paid rarely. */
export const SOLIDIFY_TURNS = 80;
/** Prompt tokens of episodes per librarian call (SEEDS §3.3 groups; our packing, about 30-40 short episodes). */
export const LIBRARIAN_PACKET_TOKENS = 1_500;
/**
 * Tokens kept free for the fixed model steps after consolidation: comb ≈ 1,000-2,500, drift ≈ 600, dream ≈ 800,
 * self-image ≈ 900, ideas ≈ 500, PII watch ≈ 800 (system prompt + payload + answer cap, measured on a 100-episode day).
 */
export const DEFAULT_RESERVE = 4_000;

/** Steps that run once a night, in order, after consolidation. */
const FIXED_STEPS: readonly NightStep[] = [
  'comb',
  'drift',
  'dream',
  'lifecycle',
  'recipes',
  'self_image',
  'gaps',
  'ideas',
  'pii_watch',
];

type Packet = WorkPacket & { unit: PlannedUnit; episodeIds: number[] };

/** The name of the `i`-th unit of a step: zero-padded so units sort in plan order. */
export function unitName(i: number): string {
  return String(i + 1).padStart(4, '0');
}

/**
 * Without a model, one `consume` unit takes every eligible episode. With one, conversation turns are chunked by the
 * Layer-0 scan (≤ 10-minute gaps, ≥ 3 turns) into solidify batches, and all eligible episodes are grouped by meaning
 * into librarian packets; each packet's prompt is built (with a scratch placeholder map) to estimate its cost, and
 * `planSleepWork` fits them, oldest first, into `budget - reserve`. What does not fit is planned as deferred and
 * waits for the next night; a librarian group whose turns wait for solidify waits too, so no turn is consolidated
 * before it could be solidified.
 */
export async function planNight(
  night: NightContext,
  pending: readonly Episode[],
  budget: number,
): Promise<PlannedUnit[]> {
  const fixed = FIXED_STEPS.map((step): PlannedUnit => ({ step, unit: unitName(0), payload: {} }));
  if (pending.length === 0) return fixed;
  if (night.model === undefined)
    return [
      { step: 'consume', unit: unitName(0), payload: { episodeIds: pending.map((e) => e.id) } },
      ...fixed,
    ];
  const scratch = night.redactor.scratch();
  const redact = (s: string) => scratch.redact(s);
  const solidify = await solidifyPackets(night, pending, redact);
  const librarian = await librarianPackets(night, pending, redact);
  const plan = planSleepWork([...solidify, ...librarian], budget, {
    reserve: night.config.budget?.reserve ?? DEFAULT_RESERVE,
  });
  const waiting = new Set<Packet>([...plan.wait, ...plan.tooLarge]);
  const waitingTurns = new Set(solidify.filter((p) => waiting.has(p)).flatMap((p) => p.episodeIds));
  for (const p of librarian) if (p.episodeIds.some((id) => waitingTurns.has(id))) waiting.add(p);
  const units = [...solidify, ...librarian].map((p) =>
    waiting.has(p) ? { ...p.unit, payload: { ...p.unit.payload, deferred: true } } : p.unit,
  );
  return [...units, ...fixed];
}

async function solidifyPackets(
  night: NightContext,
  pending: readonly Episode[],
  redact: (s: string) => string,
): Promise<Packet[]> {
  const oldest = pending[0]!.createdAt;
  // Turns some narrative already links (written by the agent, or an earlier night) are not solidified again.
  const narratives = await night.store.narratives.list(night.space, { since: oldest, limit: 5_000 });
  const scan = scanUnindexed(
    narratives.map((n) => ({
      id: n.id,
      sourceLinks: n.sourceLinks,
      createdAt: n.createdAt,
      hasEmbedding: true,
    })),
    pending.map((e) => ({
      id: e.id,
      content: e.content,
      role: e.role,
      session: e.session,
      createdAt: e.createdAt,
      hasEmbedding: true,
    })),
    { since: oldest - 1 },
  );
  const batches: number[][][] = [];
  let turns = 0;
  for (const c of scan.trackB.chunks) {
    const last = batches[batches.length - 1];
    if (last !== undefined && turns + c.episodeIds.length <= SOLIDIFY_TURNS) {
      last.push(c.episodeIds);
      turns += c.episodeIds.length;
    } else {
      batches.push([c.episodeIds]);
      turns = c.episodeIds.length;
    }
  }
  const tags = (await knownTags(night.store, night.space)).map(redact);
  const out: Packet[] = [];
  for (const [i, chunks] of batches.entries()) {
    const prompt = buildSolidifyPrompt(
      { chunks: await solidifyChunks(night, chunks, redact), knownTags: tags },
      { language: night.config.language },
    );
    const unit: PlannedUnit = { step: 'solidify', unit: unitName(i), payload: { chunks } };
    out.push({
      id: `solidify:${unit.unit}`,
      estimate: estimatePromptTokens(prompt),
      unit,
      episodeIds: chunks.flat(),
    });
  }
  return out;
}

async function librarianPackets(
  night: NightContext,
  pending: readonly Episode[],
  redact: (s: string) => string,
): Promise<Packet[]> {
  const groups = groupEpisodes(
    pending.map((e) => ({
      id: e.id,
      text: e.content,
      session: e.session,
      at: e.createdAt,
      cost: estimateTokens(clip(redact(e.content), LIBRARIAN_EPISODE_CHARS)) + 12,
    })),
    { maxCost: LIBRARIAN_PACKET_TOKENS },
  );
  const byId = new Map(pending.map((e) => [e.id, e]));
  const out: Packet[] = [];
  for (const [i, ids] of groups.entries()) {
    const episodes = ids.map((id) => byId.get(id)!);
    const { prompt } = await librarianPrompt(night, episodes, redact);
    const unit: PlannedUnit = { step: 'librarian', unit: unitName(i), payload: { episodeIds: ids } };
    out.push({ id: `librarian:${unit.unit}`, estimate: estimatePromptTokens(prompt), unit, episodeIds: ids });
  }
  return out;
}
