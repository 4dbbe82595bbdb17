/** Plans a night: the episode-partitioned units (solidify batches, librarian groups) fitted into the budget, then the fixed steps. */

import { DAY_MS } from '../core/clock.js';
import type { Episode } from '../core/types.js';
import { scanUnindexed } from '../script/layer0-scan.js';
import { planSleepWork, type WorkPacket } from '../script/sleep-budget-policy.js';
import { groupEpisodes } from './group-episodes.js';
import { estimateTokens } from './llm/token-estimate.js';
import { packetCost, type NightContext } from './night-context.js';
import { NIGHT_STEPS, type NightStep } from './night-types.js';
import { LIBRARIAN_EPISODE_CHARS, librarianPrompt } from './phases/librarian-phase.js';
import type { PlannedUnit } from './phases/phase.js';
import { solidifyPrompt } from './phases/solidify-phase.js';
import { clip } from './prompts/prompt.js';

/**
 * Turns per solidify call: up to about 3,500 prompt tokens of conversation, so the instructions are paid rarely (a
 * 100-episode day, or small days that waited for each other, share one call) and a tight budget still finishes a
 * morning.
 */
export const SOLIDIFY_TURNS = 120;
/** Episodes outside conversation chunks that may join the last solidify packet instead of a librarian call of their own. */
export const LOOSE_IN_SOLIDIFY = 40;
/** Prompt tokens of episodes per librarian call (SEEDS §3.3 groups, packed: about 50 short episodes). */
export const LIBRARIAN_PACKET_TOKENS = 2_000;
/**
 * Tokens kept free for the fixed model steps after consolidation, as measured on a 100-episode day (test
 * sleep-tokens): comb ≈ 800, dream ≈ 450, self-image ≈ 600, PII watch ≈ 850, drift and ideas ≈ 300 each.
 */
export const DEFAULT_RESERVE = 2_500;

/** Steps that run once a night, in order, after consolidation. */
const FIXED_STEPS: readonly NightStep[] = NIGHT_STEPS.slice(NIGHT_STEPS.indexOf('comb'));

/** A unit with its cost estimate, its episodes and its time (its oldest episode). */
export type Packet = WorkPacket & { unit: PlannedUnit; episodeIds: number[]; at: number };

/** The name of the `i`-th unit of a step: zero-padded so units sort in plan order. */
export function unitName(i: number): string {
  return String(i + 1).padStart(4, '0');
}

/**
 * Without a model, one `consume` unit takes every eligible episode. With one, a small day waits (`smallDay`);
 * otherwise conversation turns are chunked by the Layer-0 scan (≤ 10-minute gaps, ≥ 3 turns) into solidify batches,
 * which read their turns once for narratives and knowledge; the episodes no chunk holds join the last batch when they
 * are few, else they are grouped by meaning into librarian packets. Each packet's prompt is built (with a scratch
 * placeholder map) to estimate its cost. `fitPackets` then fills `budget - reserve` oldest first; what does not fit
 * is planned as deferred and waits for the next night.
 */
export async function planNight(
  night: NightContext,
  pending: readonly Episode[],
  budget: number,
  options: { askNow?: boolean } = {},
): Promise<PlannedUnit[]> {
  const fixed = FIXED_STEPS.map((step): PlannedUnit => ({ step, unit: unitName(0), payload: {} }));
  if (pending.length === 0) return fixed;
  if (night.model === undefined) {
    return [
      { step: 'consume', unit: unitName(0), payload: { episodeIds: pending.map((e) => e.id) } },
      ...fixed,
    ];
  }
  const waits = options.askNow === true ? undefined : smallDay(night, pending);
  if (waits !== undefined) return [{ step: 'solidify', unit: unitName(0), payload: { waits } }, ...fixed];
  const scratch = night.redactor.scratch();
  const redact = (s: string) => scratch.redact(s);
  const solidify = await solidifyPackets(night, pending, redact);
  // Solidify reads its turns once for narratives and knowledge; what no chunk holds (tool results, notes, short
  // exchanges) rides along in the last solidify packet when it is small, so a day is one call; else the librarian.
  const read = new Set(solidify.flatMap((p) => p.episodeIds));
  const loose = pending.filter((e) => !read.has(e.id));
  const last = solidify[solidify.length - 1];
  let librarian: Packet[];
  if (last !== undefined && loose.length > 0 && loose.length <= LOOSE_IN_SOLIDIFY) {
    const ids = loose.map((e) => e.id);
    const chunks = last.unit.payload.chunks ?? [];
    const { prompt } = await solidifyPrompt(night, chunks, redact, ids);
    solidify[solidify.length - 1] = {
      ...last,
      estimate: packetCost(prompt),
      unit: { ...last.unit, payload: { chunks, loose: ids } },
      episodeIds: [...last.episodeIds, ...ids],
      at: Math.min(last.at, ...loose.map((e) => e.occurredAt)),
    };
    librarian = [];
  } else librarian = await librarianPackets(night, loose, redact);
  const run = fitPackets(solidify, librarian, budget - (night.config.budget?.reserve ?? DEFAULT_RESERVE));
  const units = [...solidify, ...librarian].map((p) =>
    run.has(p) ? p.unit : { ...p.unit, payload: { ...p.unit.payload, deferred: true } },
  );
  return [...units, ...fixed];
}

/**
 * Why a small day's episodes wait for a later night, or undefined when they go to the model tonight. Every call pays
 * its instructions (about 370 tokens) however little it carries, so fewer than `minTurns` episodes (config
 * `sleep.minPacketTurns`, 40) wait for more, until the oldest has waited `maxWaitDays` (7; waiting counts from the
 * earlier of when it happened and when it was stored, as the wake rule counts). The turns stay searchable meanwhile;
 * only their narratives and knowledge come later. `--force`, and a night an agent starts, ask tonight. Off (every night asks) without the setting.
 */
export function smallDay(night: NightContext, pending: readonly Episode[]): string | undefined {
  const p = night.config.packets;
  if (p === undefined || pending.length >= p.minTurns) return undefined;
  const waited = night.asOf - Math.min(...pending.map((e) => Math.min(e.occurredAt, e.createdAt)));
  if (waited >= p.maxWaitDays * DAY_MS) return undefined;
  return `a small day: ${pending.length} episodes (< ${p.minTurns}) wait up to ${p.maxWaitDays} days to share one call`;
}

/**
 * First fit in time order (a packet's time is its oldest episode; solidify before librarian at equal times), so a
 * tight budget finishes the oldest part of the day and leaves the newest for the next night. A librarian packet runs
 * only when every turn of it is solidified tonight too (consolidating a turn first would take it out of the next
 * night's solidify): the solidify packets it needs are fitted first, and if one does not fit, the group waits.
 * Each fit is `planSleepWork` on the remaining budget, so the budget rule stays the script layer's.
 */
export function fitPackets(
  solidify: readonly Packet[],
  librarian: readonly Packet[],
  available: number,
): Set<Packet> {
  const owner = new Map<number, Packet>();
  for (const p of solidify) for (const id of p.episodeIds) owner.set(id, p);
  const ordered = [...solidify, ...librarian].sort(
    (a, b) => a.at - b.at || Number(a.unit.step === 'librarian') - Number(b.unit.step === 'librarian'),
  );
  const run = new Set<Packet>();
  const decided = new Set<Packet>();
  let spent = 0;
  const tryRun = (p: Packet): boolean => {
    if (decided.has(p)) return run.has(p);
    decided.add(p);
    if (planSleepWork([p], available - spent).run.length === 0) return false;
    run.add(p);
    spent += p.estimate;
    return true;
  };
  for (const p of ordered) {
    if (decided.has(p)) continue;
    if (p.unit.step === 'librarian') {
      const needs = [...new Set(p.episodeIds.flatMap((id) => (owner.has(id) ? [owner.get(id)!] : [])))];
      // Every needed solidify packet must run, and the group itself must still fit after them.
      if (!needs.every(tryRun)) {
        decided.add(p);
        continue;
      }
    }
    tryRun(p);
  }
  return run;
}

async function solidifyPackets(
  night: NightContext,
  pending: readonly Episode[],
  redact: (s: string) => string,
): Promise<Packet[]> {
  const oldest = pending[0]!.createdAt;
  // Turns some narrative already links (written by the agent, or an earlier night) are not solidified again.
  const narratives = await night.scope.narratives.list({ since: oldest, limit: 5_000 });
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
      // Chunks follow when turns happened (an import records a whole history at one creation time).
      createdAt: e.occurredAt,
      hasEmbedding: true,
    })),
    { since: Math.min(...pending.map((e) => e.occurredAt)) - 1 },
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
  const timeOf = new Map(pending.map((e) => [e.id, e.occurredAt]));
  const out: Packet[] = [];
  for (const [i, chunks] of batches.entries()) {
    const { prompt } = await solidifyPrompt(night, chunks, redact);
    const unit: PlannedUnit = { step: 'solidify', unit: unitName(i), payload: { chunks } };
    out.push({
      id: `solidify:${unit.unit}`,
      estimate: packetCost(prompt),
      unit,
      episodeIds: chunks.flat(),
      at: Math.min(...chunks.flat().map((id) => timeOf.get(id) ?? Infinity)),
    });
  }
  return out;
}

async function librarianPackets(
  night: NightContext,
  pending: readonly Episode[],
  redact: (s: string) => string,
): Promise<Packet[]> {
  if (pending.length === 0) return [];
  const groups = groupEpisodes(
    pending.map((e) => ({
      id: e.id,
      text: e.content,
      session: e.session,
      at: e.occurredAt,
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
    out.push({
      id: `librarian:${unit.unit}`,
      estimate: packetCost(prompt),
      unit,
      episodeIds: ids,
      at: Math.min(...episodes.map((e) => e.occurredAt)),
    });
  }
  return out;
}
