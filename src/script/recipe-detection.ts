/** Recipes: 2-4 consecutive successful tool calls that repeat in ≥ 2 sessions become procedures (SEEDS §3.5). */

/** A tool call as ingested (`/ingest` with `payload.tool`): which session, which tool, whether it succeeded, when. */
export interface ToolEpisode {
  session: string;
  tool: string;
  ok: boolean;
  at: number;
}

/** A detected recipe; `key` is stable, so storing it as keyed knowledge supersedes instead of duplicating. */
export interface Recipe {
  tools: string[];
  /** Sessions it occurred in, sorted. */
  sessions: string[];
  /** Occurrences over all sessions (overlapping occurrences inside one run count separately). */
  count: number;
  key: string;
}

/** SEEDS §3.5: sequences of 2-4 successful calls, repeated in ≥ 2 sessions. */
export const RECIPE_RULES = { minLength: 2, maxLength: 4, minSessions: 2 } as const;

const SEP = '\u0000';

/**
 * Deterministic detection. Per session, calls are ordered by `at` (ties keep input order); a failed call breaks
 * the run, so a recipe never spans a failure. Every contiguous window of 2-4 calls is a candidate; windows of one
 * tool repeated (`read, read`) are not procedures and are skipped. A candidate contained in a longer candidate
 * seen in exactly the same sessions is dropped (maximal sequences win); a shorter one that also occurs in more
 * sessions stays, because it is a recipe of its own. Sorted by length, sessions, count (all descending), then key.
 */
export function detectRecipes(
  episodes: readonly ToolEpisode[],
  options: { minSessions?: number } = {},
): Recipe[] {
  const minSessions = options.minSessions ?? RECIPE_RULES.minSessions;
  const bySession = new Map<string, Array<{ e: ToolEpisode; i: number }>>();
  episodes.forEach((e, i) => {
    const list = bySession.get(e.session) ?? [];
    list.push({ e, i });
    bySession.set(e.session, list);
  });
  const stats = new Map<string, { tools: string[]; sessions: Set<string>; count: number }>();
  for (const [session, calls] of bySession) {
    calls.sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    for (const run of successfulRuns(calls.map((c) => c.e))) {
      for (let len = RECIPE_RULES.minLength; len <= RECIPE_RULES.maxLength; len++) {
        for (let start = 0; start + len <= run.length; start++) {
          const tools = run.slice(start, start + len);
          if (tools.every((t) => t === tools[0])) continue;
          const key = tools.join(SEP);
          const s = stats.get(key) ?? { tools, sessions: new Set<string>(), count: 0 };
          s.sessions.add(session);
          s.count += 1;
          stats.set(key, s);
        }
      }
    }
  }
  const candidates = [...stats.values()].filter((s) => s.sessions.size >= minSessions);
  const maximal = candidates.filter(
    (s) =>
      !candidates.some(
        (t) =>
          t.tools.length > s.tools.length && contains(t.tools, s.tools) && sameSet(t.sessions, s.sessions),
      ),
  );
  return maximal
    .map((s) => ({
      tools: s.tools,
      sessions: [...s.sessions].sort(),
      count: s.count,
      key: `recipe:${s.tools.join('>')}`,
    }))
    .sort(
      (a, b) =>
        b.tools.length - a.tools.length ||
        b.sessions.length - a.sessions.length ||
        b.count - a.count ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
}

/** Human-readable content for the procedure knowledge a recipe becomes. */
export function recipeContent(recipe: Recipe): string {
  return `Recipe: ${recipe.tools.join(' → ')} (succeeded in ${recipe.sessions.length} sessions)`;
}

function successfulRuns(calls: readonly ToolEpisode[]): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const c of calls) {
    if (c.ok) run.push(c.tool);
    else {
      if (run.length > 0) runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

function contains(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((t, j) => haystack[i + j] === t)) return true;
  }
  return false;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
