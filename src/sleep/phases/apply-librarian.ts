/** Applies checked librarian proposals to the store: merge, abstract, link and supersede, with quarantine (SEEDS §3.3-3.4). */

import { parseId } from '../../core/ids.js';
import type { Episode, Evidence, Knowledge } from '../../core/types.js';
import type { Store } from '../../store/port.js';
import {
  addOccurrence,
  contradictionOf,
  insertEntry,
  retire,
  sameStatement,
  unionEvidence,
} from '../knowledge-writes.js';
import type { NightContext } from '../night-context.js';
import { briefItem, type NightDelta } from '../night-log.js';
import type { LibrarianProposal } from '../prompts/librarian-prompt.js';
import type { Applied, EmbedItem } from './phase.js';

type EntryProposal = Exclude<LibrarianProposal, { op: 'link' | 'confirm' }>;

/** Why a quarantined entry waits for review, as the briefing says it. */
const REPLACES_RELIABLE = 'would replace reliable knowledge';

/**
 * Applies `accepted` (already checked for schema, secrets and scope) in order, entries before links, then marks the
 * group's episodes consolidated — all inside the caller's transaction. Rules:
 * - abstract: a statement equal to a shown entry (or to the live entry of its key) is one more occurrence of it;
 *   a new value for a provisional key supersedes it; anything contradicting reliable knowledge is quarantined.
 * - merge: one new entry with the summed occurrences and joined evidence; the old ones are superseded (history).
 * - supersede: the old entry is superseded by the new one — unless it is reliable: then the new one is quarantined
 *   until a review approves it, so one note cannot overwrite confirmed knowledge (SEEDS §3.4).
 * - confirm: the group says again what a shown entry says: one more occurrence (evidence joined, strength
 *   reinforced), so a fact repeated over many sessions grows to reliable.
 * - link: ends may be shown ids or refs; an end merged or superseded in the same answer is redirected to its successor.
 */
export async function applyLibrarian(
  night: NightContext,
  tx: Store,
  accepted: readonly LibrarianProposal[],
  shown: readonly Knowledge[],
  episodes: readonly Episode[],
): Promise<Applied> {
  const d: Required<Pick<NightDelta, 'created' | 'reinforced' | 'superseded' | 'quarantined'>> & {
    merged: number;
    linked: number;
  } = {
    created: [],
    reinforced: [],
    superseded: [],
    quarantined: [],
    merged: 0,
    linked: 0,
  };
  const embed: EmbedItem[] = [];
  const byShownId = new Map(shown.map((k) => [`k${k.id}`, k]));
  const resolved = new Map<string, number>(); // ref or shown id → the entry it now stands for
  const restore = (s: string) => night.redactor.restore(s);
  const evidenceOf = (ids: readonly string[] | undefined): Evidence => ({
    episodes: (ids ?? []).map((i) => parseId(i).id),
    narratives: [],
  });
  const current = async (id: string) => {
    const k = byShownId.get(id);
    return k === undefined ? undefined : tx.forSpace(night.space).knowledge.get(k.id);
  };
  const created = (k: Knowledge) => {
    d.created.push(briefItem(k));
    embed.push({ layer: 'knowledge', id: k.id, text: k.content });
  };
  const quarantine = async (k: Knowledge, against: Knowledge, reason: string) => {
    d.quarantined.push({ entry: briefItem(k), conflictsWith: briefItem(against), reason });
    embed.push({ layer: 'knowledge', id: k.id, text: k.content });
  };

  for (const p of accepted.filter((x): x is EntryProposal => x.op !== 'link' && x.op !== 'confirm')) {
    const content = restore(p.content);
    if (p.op === 'abstract') {
      const key = p.key === undefined ? null : restore(p.key);
      const evidence = evidenceOf(p.evidence);
      const live = key === null ? undefined : await tx.forSpace(night.space).knowledge.getLiveByKey(key);
      const liveShown = (await Promise.all(shown.map((k) => tx.forSpace(night.space).knowledge.get(k.id)))).filter(
        (k): k is Knowledge => k !== undefined && (k.status === 'provisional' || k.status === 'reliable'),
      );
      const same = sameStatement(content, p.kind, live === undefined ? liveShown : [live]);
      if (same !== undefined) {
        await addOccurrence(night, tx, same, evidence);
        d.reinforced.push(briefItem(same));
        if (p.ref !== undefined) resolved.set(p.ref, same.id);
        continue;
      }
      const validFrom = p.valid_from === undefined ? night.asOf : Date.parse(p.valid_from);
      // A new entry outside the key's live slot (quarantined for review, or beside an entry under review).
      const unkeyed = (status: 'quarantined' | 'provisional', meta: Record<string, unknown>) =>
        insertEntry(night, tx, { kind: p.kind, content, key: null, status, occurrences: 1, evidence, validFrom, meta });
      if (live !== undefined && live.status === 'reliable') {
        const k = await unkeyed('quarantined', { quarantine: { supersedes: live.id, key, reason: REPLACES_RELIABLE } });
        await quarantine(k, live, REPLACES_RELIABLE);
        continue;
      }
      if (live !== undefined && live.status === 'quarantined') {
        // The key's live slot is held by an entry under review: keep the new statement beside it, unkeyed.
        const k = await unkeyed('provisional', { key });
        created(k);
        if (p.ref !== undefined) resolved.set(p.ref, k.id);
        continue;
      }
      const { verdict, reliable } = await contradictionOf(night, tx, { content, key }, liveShown);
      if (verdict.kind === 'contradicts') {
        const against = reliable.find((r) => r.id === verdict.with)!;
        const k = await unkeyed('quarantined', {
          quarantine: { conflictsWith: against.id, key, reason: `contradicts (${verdict.match})` },
        });
        await quarantine(k, against, `contradicts (${verdict.match})`);
        continue;
      }
      // The live-key index allows one live entry per key: retire the old version before the new one exists.
      if (live !== undefined) await tx.forSpace(night.space).knowledge.setStatus([live.id], 'superseded', night.asOf);
      const k = await insertEntry(night, tx, {
        kind: p.kind,
        content,
        key,
        status: 'provisional',
        occurrences: 1,
        evidence,
        validFrom,
      });
      if (live !== undefined) {
        await retire(night, tx, live.id, k.id);
        d.superseded.push({ old: briefItem(live), by: briefItem(k) });
        embed.push({ layer: 'knowledge', id: k.id, text: k.content });
      } else created(k);
      if (p.ref !== undefined) resolved.set(p.ref, k.id);
    } else if (p.op === 'merge') {
      const olds = (await Promise.all(p.ids.map(current))).filter(
        (k): k is Knowledge => k !== undefined && (k.status === 'provisional' || k.status === 'reliable'),
      );
      if (olds.length < 2) continue; // an entry changed earlier in this unit; a merge of one is no merge
      const key = olds.find((k) => k.key !== null)?.key ?? null;
      await tx.forSpace(night.space).knowledge.setStatus(
        olds.map((k) => k.id),
        'superseded',
        night.asOf,
      );
      const k = await insertEntry(night, tx, {
        kind: p.kind,
        content,
        key,
        status: olds.some((o) => o.status === 'reliable') ? 'reliable' : 'provisional',
        occurrences: olds.reduce((n, o) => n + o.occurrences, 0),
        evidence: olds.reduce((e, o) => unionEvidence(e, o.evidence), {
          episodes: [],
          narratives: [],
        } as Evidence),
        strength: Math.max(...olds.map((o) => o.strength)),
        tags: [...new Set(olds.flatMap((o) => o.tags))],
        validFrom: Math.min(...olds.map((o) => o.validFrom ?? o.createdAt)),
        meta: { mergedFrom: olds.map((o) => o.id) },
      });
      for (const o of olds) {
        await retire(night, tx, o.id, k.id);
        resolved.set(`k${o.id}`, k.id);
      }
      await tx.forSpace(night.space).knowledge.reinforce([{ ids: [k.id], step: night.config.reinforceStep, at: night.asOf }]);
      d.merged += 1;
      d.reinforced.push(briefItem(k));
      embed.push({ layer: 'knowledge', id: k.id, text: k.content });
      if (p.ref !== undefined) resolved.set(p.ref, k.id);
    } else {
      const old = await current(p.old);
      if (old === undefined || (old.status !== 'provisional' && old.status !== 'reliable')) continue;
      const evidence = evidenceOf(p.evidence);
      if (old.status === 'reliable') {
        const k = await insertEntry(night, tx, {
          kind: p.kind,
          content,
          key: null,
          status: 'quarantined',
          occurrences: 1,
          evidence,
          meta: { quarantine: { supersedes: old.id, key: old.key, reason: REPLACES_RELIABLE } },
        });
        await quarantine(k, old, REPLACES_RELIABLE);
        continue;
      }
      await tx.forSpace(night.space).knowledge.setStatus([old.id], 'superseded', night.asOf);
      const k = await insertEntry(night, tx, {
        kind: p.kind,
        content,
        key: old.key,
        status: 'provisional',
        occurrences: 1,
        evidence,
      });
      await retire(night, tx, old.id, k.id);
      resolved.set(`k${old.id}`, k.id);
      d.superseded.push({ old: briefItem(old), by: briefItem(k) });
      embed.push({ layer: 'knowledge', id: k.id, text: k.content });
      if (p.ref !== undefined) resolved.set(p.ref, k.id);
    }
  }

  // Confirmations after the entries, so one that names an entry merged or superseded tonight counts for its successor.
  for (const p of accepted) {
    if (p.op !== 'confirm') continue;
    const id = resolved.get(p.id) ?? byShownId.get(p.id)?.id;
    const k = id === undefined ? undefined : await tx.forSpace(night.space).knowledge.get(id);
    if (k === undefined || (k.status !== 'provisional' && k.status !== 'reliable')) continue;
    const evidence = evidenceOf(p.evidence);
    // Episodes it already cites were counted before (a resumed night, a repeated answer): no second occurrence.
    if (evidence.episodes.every((e) => k.evidence.episodes.includes(e))) continue;
    await addOccurrence(night, tx, k, evidence);
    if (!d.reinforced.some((r) => r.id === k.id)) d.reinforced.push(briefItem(k));
  }

  for (const p of accepted) {
    if (p.op !== 'link') continue;
    const end = (x: string) => resolved.get(x) ?? byShownId.get(x)?.id;
    const from = end(p.from);
    const to = end(p.to);
    if (from === undefined || to === undefined || from === to) continue;
    if (await tx.forSpace(night.space).knowledge.link(from, to, p.type, night.asOf)) d.linked += 1;
  }

  const consolidated = await tx.forSpace(night.space).episodes.markConsolidated(
    episodes.map((e) => e.id),
    night.asOf,
  );
  const { merged, linked, ...lists } = d;
  return { delta: { ...lists, episodes: consolidated, counts: { merged, linked } }, embed };
}
