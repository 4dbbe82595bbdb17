/** The nightly token budget, growing with the memory's size, and the planner that fits work into it (SEEDS §3.3). */

/**
 * Budget formula: `min(cap, base + perSqrtItem · √items)`, items = live episodes + narratives + knowledge entries.
 * Defaults 13,000 + 50·√items, capped at 40,000: 0 items → 13,000; 100 → 13,500; 10,000 → 18,000;
 * 100,000 → 28,811; the cap is reached at 291,600 items. The base covers a 100-episode working day (≈ 12k tokens,
 * every step included, measured by test/sleep-tokens.test.ts), inside Tideline's 7-17k a day (SEEDS §1.8); the
 * square root lets a large memory do more each night without cost growing linearly with storage. A heavier day
 * waits in part for the next night, oldest first.
 */
export const SLEEP_BUDGET = { base: 13_000, perSqrtItem: 50, cap: 40_000 } as const;

/** Tokens (input + output) the night may spend for a memory of `memorySize` items. */
export function nightlyTokenBudget(
  memorySize: number,
  options: { base?: number; perSqrtItem?: number; cap?: number } = {},
): number {
  const base = options.base ?? SLEEP_BUDGET.base;
  const per = options.perSqrtItem ?? SLEEP_BUDGET.perSqrtItem;
  const cap = options.cap ?? SLEEP_BUDGET.cap;
  return Math.min(cap, Math.round(base + per * Math.sqrt(Math.max(0, memorySize))));
}

/** One unit of model work with its estimated token cost (prompt + answer cap). */
export interface WorkPacket {
  id: string;
  estimate: number;
}

/** Which packets run tonight, which wait for the next night, and which can never fit one night. */
export interface WorkPlan<P extends WorkPacket> {
  run: P[];
  wait: P[];
  /** Estimate above the whole budget: the caller must split these (e.g. a smaller librarian group). */
  tooLarge: P[];
  /** Sum of the estimates in `run`. */
  planned: number;
}

/**
 * First-fit in the given order (the caller orders by step, then oldest first): each packet runs if it still fits
 * `budget - reserve`, otherwise it waits; later, smaller packets may still fit. `reserve` keeps room for fixed
 * later steps (comb, dream, self-image) that are planned separately.
 */
export function planSleepWork<P extends WorkPacket>(
  packets: readonly P[],
  budget: number,
  options: { reserve?: number } = {},
): WorkPlan<P> {
  const available = Math.max(0, budget - (options.reserve ?? 0));
  const plan: WorkPlan<P> = { run: [], wait: [], tooLarge: [], planned: 0 };
  for (const p of packets) {
    if (p.estimate > budget) plan.tooLarge.push(p);
    else if (plan.planned + p.estimate <= available) {
      plan.run.push(p);
      plan.planned += p.estimate;
    } else plan.wait.push(p);
  }
  return plan;
}
