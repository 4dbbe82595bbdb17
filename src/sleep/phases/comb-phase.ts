/** Comb (Tideline's digest, SEEDS §1.8 layer 1) plus the deterministic nightly weights (recurrence refresh, anti-inflation). */

import { formatId, parseId } from '../../core/ids.js';
import { SELF_IMAGE_PREFIX, type Narrative } from '../../core/types.js';
import { attentionHeatmap, UNCLASSIFIED } from '../../script/attention-heatmap.js';
import { planNightlyWeights } from '../../script/recurrence-refresh.js';
import { computeWeight } from '../../script/weight-policy.js';
import type { Store } from '../../store/port.js';
import { insertNarrative } from '../narrative-writes.js';
import { NightContext } from '../night-context.js';
import type { NightDelta } from '../night-log.js';
import {
  acceptComb,
  buildCombPrompt,
  combResponseSchema,
  type CombInput,
  type CombResponse,
} from '../prompts/comb-prompt.js';
import type { EmbedItem, Phase } from './phase.js';

/** Today's memories shown to the comb; the prompt's answer cap fits about this many. */
const TODAY_SHOWN = 40;
/** Narratives the nightly weight job reads (the newest; the anti-inflation window is 50, SEEDS §1.5.1). */
const WEIGHT_WINDOW = 2_000;

/** The comb's input: today's narratives, profiles, self-concept, open threads and the attention heatmap, redacted. */
export async function combInput(night: NightContext, today: readonly Narrative[]): Promise<CombInput> {
  const { store, space } = night;
  const r = (s: string) => night.redactor.redact(s);
  const attention = await store.forSpace(space).attention.since(night.asOf - 7 * 86_400_000);
  const clusters = (await store.forSpace(space).derived.topicClusters({ minSize: 1, limit: 50 })).map((c) => c.name);
  const heat = attentionHeatmap(
    attention
      .filter((a) => a.layer === 'narrative')
      .map((a) => ({ narrativeId: a.itemId, sim: a.sim, source: a.source, at: a.at, cluster: a.cluster })),
    { now: night.asOf, days: 7, clusters },
  );
  return {
    narratives: today.map((n) => ({
      id: formatId('narrative', n.id),
      kind: n.kind,
      gesture: r(n.gesture ?? n.content),
      tags: n.tags.map(r),
      scores: {
        importance: n.importance,
        emotional: n.emotional,
        recurrence: n.recurrence,
        unresolved: n.unresolved,
      },
    })),
    profiles: (await store.forSpace(space).identity.profiles())
      .slice(0, 20)
      .map((p) => ({ entity: r(p.entity), type: p.ptype, content: r(p.content) })),
    selfConcept: (await store.forSpace(space).identity.selfConcept())
      .filter((s) => !s.field.startsWith(SELF_IMAGE_PREFIX))
      .map((s) => ({ field: s.field, content: r(s.content) })),
    threads: (await store.forSpace(space).identity.threads('open', 10)).map((t) => ({
      id: `t${t.id}`,
      content: r(t.content),
    })),
    ...(heat.totalHits === 0 && heat.neverLit.length === 0
      ? {}
      : {
          attention: {
            lit: heat.clusters
              .filter((c) => c.cluster !== UNCLASSIFIED)
              .map((c) => ({ cluster: c.cluster, hits: c.hits })),
            unlit: heat.neverLit,
          },
        }),
  };
}

/** Memories of one night that are enough to comb even when none of them stands out. */
export const COMB_MIN_MEMORIES = 4;
/** A memory stands out (worth rescoring, or a tension to note) from this importance, emotional or unresolved score. */
export const COMB_NOTABLE_SCORE = 4;

/**
 * Whether tonight has something to comb, and why: at least {@link COMB_MIN_MEMORIES} new memories, or one that
 * stands out. A quiet night (a few routine memories) leaves the rescoring, profiles and threads to a fuller night.
 */
export function combReason(today: ReadonlyArray<Pick<Narrative, 'importance' | 'emotional' | 'unresolved'>>): { ran: boolean; reason: string } {
  if (today.length === 0) return { ran: false, reason: 'no new memories' };
  const notable = today.filter(
    (n) => Math.max(n.importance, n.emotional, n.unresolved) >= COMB_NOTABLE_SCORE,
  ).length;
  if (notable > 0) return { ran: true, reason: `${notable} of ${today.length} new memories score ${COMB_NOTABLE_SCORE}+` };
  if (today.length >= COMB_MIN_MEMORIES) return { ran: true, reason: `${today.length} new memories` };
  return { ran: false, reason: `quiet night: ${today.length} routine memories (< ${COMB_MIN_MEMORIES}, none scoring ${COMB_NOTABLE_SCORE}+)` };
}

/** Combs today's memories (when a model is set and {@link combReason} finds something) and always refreshes the weights. */
export const combPhase: Phase = async (night) => {
  const today = await night.scope.narratives.list({ since: night.since, limit: TODAY_SHOWN });
  let answer: CombResponse | undefined;
  const why = combReason(today);
  let delta: NightDelta = night.model === undefined ? {} : { steps: [{ step: 'comb', ...why }] };
  if (night.model !== undefined && why.ran) {
    const input = await combInput(night, today);
    const r = await night.ask(
      buildCombPrompt(input, { language: night.config.language }),
      combResponseSchema,
    );
    if (r.kind === 'ok') {
      const accepted = acceptComb(r.value, input);
      answer = accepted.value;
      delta = { ...delta, droppedItems: r.dropped + accepted.dropped };
    } else delta = { ...delta, ...NightContext.missed('comb', r) };
  }
  return {
    proposals: answer ?? { weights: 'refresh' },
    delta,
    apply: async (tx) => {
      const embed = answer === undefined ? [] : await applyComb(night, tx, answer);
      await refreshWeights(night, tx);
      return { delta: {}, embed };
    },
  };
};

async function applyComb(night: NightContext, tx: Store, a: CombResponse): Promise<EmbedItem[]> {
  const { space, asOf } = night;
  const restore = (s: string) => night.redactor.restore(s);
  const rows = await tx.forSpace(space).narratives.getMany(
    a.rescore.map((x) => parseId(x.id).id),
  );
  const byId = new Map(rows.map((n) => [n.id, n]));
  const rescored = a.rescore.flatMap((x) => {
    const n = byId.get(parseId(x.id).id);
    if (n === undefined) return [];
    // SEEDS §1.8: a dream's importance stays 1 whatever the re-score says.
    const s = {
      importance: n.kind === 'dream' ? 1 : (x.importance ?? n.importance),
      emotional: x.emotional ?? n.emotional,
      recurrence: n.recurrence,
      unresolved: x.unresolved ?? n.unresolved,
    };
    return [{ id: n.id, ...s, weight: computeWeight(s) }];
  });
  await tx.forSpace(space).narratives.writeScores(rescored, asOf);
  for (const p of a.profiles)
    await tx.forSpace(space).identity.upsertProfile({
      entity: restore(p.entity),
      ptype: p.type,
      content: restore(p.content),
      at: asOf,
    });
  for (const s of a.self) await tx.forSpace(space).identity.upsertSelfConcept(s.field, restore(s.content), asOf);
  const embed: EmbedItem[] = [];
  for (const c of a.conflicts) {
    const links = (
      await tx.forSpace(space).narratives.getMany(
        c.ids.map((i) => parseId(i).id),
      )
    ).flatMap((n) => n.sourceLinks);
    embed.push(
      await insertNarrative(night, tx, {
        kind: 'self_reflection',
        gesture: restore(c.note),
        tags: ['conflict'],
        sourceLinks: [...new Set(links)],
        importance: 3,
        emotional: 3,
        unresolved: 4,
      }),
    );
  }
  for (const t of a.threads) {
    const s = { importance: t.importance, emotional: t.emotional, recurrence: 1, unresolved: t.unresolved };
    await tx.forSpace(space).identity.insertThread({
      content: restore(t.content),
      ...s,
      weight: computeWeight(s),
      status: 'open',
      createdAt: asOf,
    });
  }
  for (const t of a.thread_status) {
    const id = Number(t.id.replace(/^t/, ''));
    if (Number.isInteger(id))
      await tx.forSpace(space).identity.updateThread(id, {
        status: t.status,
        updatedAt: asOf,
        ...(t.status === 'explored' ? { exploredAt: asOf } : {}),
      });
  }
  return embed;
}

/** The nightly weight job (SEEDS §1.5.1-1.5.2): recurrence from tag frequency, then anti-inflation over the newest 50. */
export async function refreshWeights(night: NightContext, tx: Store): Promise<number> {
  const docs = await tx.forSpace(night.space).narratives.list({ limit: WEIGHT_WINDOW });
  const plan = planNightlyWeights(docs);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const rows = plan.updates.flatMap((u) => {
    const d = byId.get(u.id);
    return d === undefined
      ? []
      : [
          {
            id: d.id,
            importance: d.importance,
            emotional: d.emotional,
            unresolved: d.unresolved,
            recurrence: u.recurrence ?? d.recurrence,
            weight: u.weight ?? d.weight,
          },
        ];
  });
  await tx.forSpace(night.space).narratives.writeScores(rows, night.asOf);
  return rows.length;
}
