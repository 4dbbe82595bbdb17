/** Spreads lexical scores to neighbouring turns of the same session: an answer often sits next to its question. */

/** Position of an episode within the rows read around the hits. */
export interface TurnPosition {
  id: number;
  session: string | null;
  occurredAt: number;
}

/**
 * Smoothed score of every hit and every neighbour of a hit: s'(t) = s(t) + Σ_d w_d·(s(t−d) + s(t+d)) over the
 * turns d steps away in the same session. Turns without a session have no neighbours.
 */
export function smoothBySession(
  scores: ReadonlyMap<number, number>,
  rows: readonly TurnPosition[],
  weights: readonly number[],
): Map<number, number> {
  const bySession = new Map<string, TurnPosition[]>();
  for (const r of rows) {
    if (r.session === null) continue;
    const list = bySession.get(r.session) ?? [];
    list.push(r);
    bySession.set(r.session, list);
  }
  const out = new Map<number, number>(scores);
  for (const list of bySession.values()) {
    list.sort((a, b) => a.occurredAt - b.occurredAt || a.id - b.id);
    for (let i = 0; i < list.length; i++) {
      let add = 0;
      for (let d = 1; d <= weights.length; d++) {
        const w = weights[d - 1]!;
        const before = list[i - d];
        const after = list[i + d];
        if (before) add += w * (scores.get(before.id) ?? 0);
        if (after) add += w * (scores.get(after.id) ?? 0);
      }
      if (add > 0) out.set(list[i]!.id, (out.get(list[i]!.id) ?? 0) + add);
    }
  }
  return out;
}
