/** Replaces a leaked name by its placeholder everywhere in a space, re-indexing every row it touched (PII night watch). */

import type { Store } from '../store/port.js';
import type { NightContext } from './night-context.js';

/** Rows read per layer for one name; a name in more rows is finished on the next night. */
const MAX_ROWS = 5_000;

/**
 * The name as written, standing alone: letters, digits or a hyphen may not touch it, so `Ann` leaves `Annual` and
 * `Ann-Kathrin` alone (a possessive `Ann's` is replaced). Han names
 * get no boundary (Chinese has no spaces between words). Case-sensitive, as the watch reported it.
 */
export function namePattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /^\p{Script=Han}+$/u.test(name)
    ? new RegExp(escaped, 'gu')
    : new RegExp(`(?<![\\p{L}\\p{N}-])${escaped}(?![\\p{L}\\p{N}-])`, 'gu');
}

function replaceAll(text: string, re: RegExp, placeholder: string): { text: string; n: number } {
  let n = 0;
  const out = text.replace(re, () => (n++, placeholder));
  return { text: out, n };
}

/**
 * Replaces `name` with `placeholder` in episodes (archive included), narratives (text fields and tags), knowledge
 * (every status, history too) and open threads; each changed row is re-indexed (delete + insert) and its vector
 * dropped for re-embedding. Episodes that carry a changed turn as their indexed context are re-indexed too.
 * Returns the number of occurrences replaced.
 */
export async function replaceName(
  night: NightContext,
  tx: Store,
  name: string,
  placeholder: string,
): Promise<number> {
  const { space } = night;
  const re = namePattern(name);
  const r = (s: string | null) => (s === null ? { text: null, n: 0 } : replaceAll(s, re, placeholder));
  let total = 0;
  for (const id of await tx.forSpace(space).episodes.idsContaining(name, MAX_ROWS)) {
    const e = await tx.forSpace(space).episodes.get(id);
    if (e === undefined) continue;
    const c = replaceAll(e.content, re, placeholder);
    if (c.n === 0) continue;
    total += c.n;
    await tx.forSpace(space).episodes.rewrite(
      id,
      c.text,
      night.indexes.episode(c.text, e.speaker, await previousTurns(night, tx, id)),
    );
    const around = await tx.forSpace(space).episodes.neighbours(id, night.config.contextTurns);
    for (const f of around.filter(
      (x) => x.occurredAt > e.occurredAt || (x.occurredAt === e.occurredAt && x.id > id),
    )) {
      await tx.forSpace(space).episodes.reindex(
        f.id,
        night.indexes.episode(f.content, f.speaker, await previousTurns(night, tx, f.id)),
      );
    }
  }
  const narrativeIds = new Set([
    ...(await tx.forSpace(space).narratives.idsContaining(name, MAX_ROWS)),
    ...(await tx.forSpace(space).narratives.withAnyTag([name])).map((n) => n.id),
  ]);
  for (const n of await tx.forSpace(space).narratives.getMany(
    [...narrativeIds].sort((a, b) => a - b),
  )) {
    const parts = [r(n.content), r(n.gesture), r(n.context), r(n.moment), r(n.cognitionDirection)];
    const tags = n.tags.map((t) => replaceAll(t, re, placeholder));
    const count = parts.reduce((s, p) => s + p.n, 0) + tags.reduce((s, t) => s + t.n, 0);
    if (count === 0) continue;
    total += count;
    const [content, gesture, context, moment, cognitionDirection] = parts.map((p) => p.text) as [
      string,
      string | null,
      string | null,
      string | null,
      string | null,
    ];
    const text = { content, gesture, context, moment, cognitionDirection };
    const newTags = [...new Set(tags.map((t) => t.text))];
    await tx.forSpace(space).narratives.rewrite(
      n.id,
      text,
      newTags,
      night.indexes.narrative({ ...text, tags: newTags }),
    );
  }
  for (const k of await tx.forSpace(space).knowledge.getMany(
    await tx.forSpace(space).knowledge.idsContaining(name, MAX_ROWS),
  )) {
    const c = replaceAll(k.content, re, placeholder);
    if (c.n === 0) continue;
    total += c.n;
    await tx.forSpace(space).knowledge.update(
      k.id,
      { content: c.text },
      night.indexes.knowledge({ content: c.text, key: k.key, subject: k.subject, tags: k.tags }),
      night.asOf,
    );
  }
  for (const t of await tx.forSpace(space).identity.threads('open', MAX_ROWS)) {
    const c = replaceAll(t.content, re, placeholder);
    if (c.n === 0) continue;
    total += c.n;
    await tx.forSpace(space).identity.updateThread(t.id, { content: c.text, updatedAt: night.asOf });
  }
  return total;
}

/** The turns before `id` in its session, oldest first, as the episode index's context field holds them. */
async function previousTurns(night: NightContext, tx: Store, id: number): Promise<string[]> {
  const n = night.config.contextTurns;
  if (n === 0) return [];
  const around = await tx.forSpace(night.space).episodes.neighbours(id, n);
  const at = around.findIndex((e) => e.id === id);
  return at <= 0 ? [] : around.slice(0, at).map((e) => e.content);
}
