/** Recipes: 2-4 consecutive successful tool calls that repeat in ≥ 2 sessions and finish a task become procedures (SEEDS §3.5). */

/**
 * A tool call as ingested (`/ingest` with `payload.tool`) or imported: which session, which tool, whether it
 * succeeded, when, and — when the call was recorded — its input (`{"command":"npm publish"}`, a file path …).
 */
export interface ToolEpisode {
  session: string;
  tool: string;
  ok: boolean;
  at: number;
  input?: string;
}

/** One step of a recipe: the tool, what identifies the step (`Bash: git commit`) and the input it last ran with. */
export interface RecipeStep {
  tool: string;
  step: string;
  input?: string;
}

/** A detected recipe; `key` is stable, so storing it as keyed knowledge supersedes instead of duplicating. */
export interface Recipe {
  /** The steps' names: the tool, or the tool and the command it ran (`Bash: npm publish`). */
  tools: string[];
  /** The steps as the newest session ran them, with their inputs. */
  steps: RecipeStep[];
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
 * the run, so a recipe never spans a failure. A step is named by its tool, and by the command for a shell-like tool
 * (`stepName`), so `Bash: git status` and `Bash: git commit` are different steps. Every contiguous window of 2-4
 * calls is a candidate; windows of one step repeated (`read, read`) are not procedures, and neither is a window
 * that does not finish a task: its last step must change something — a look (`git status`, Read, Grep) or a check
 * (`npm run lint`, tests) ends nothing, so `git status → npm run lint` is never a recipe (issue 21). A candidate contained in a longer candidate
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
  const stats = new Map<string, { tools: string[]; steps: RecipeStep[]; last: number; sessions: Set<string>; count: number }>();
  for (const [session, calls] of bySession) {
    calls.sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    for (const run of successfulRuns(calls.map((c) => c.e))) {
      for (let len = RECIPE_RULES.minLength; len <= RECIPE_RULES.maxLength; len++) {
        for (let start = 0; start + len <= run.length; start++) {
          const window = run.slice(start, start + len);
          const tools = window.map((c) => c.step);
          if (tools.every((t) => t === tools[0]) || !changesSomething(window[len - 1]!)) continue;
          const key = tools.join(SEP);
          const s = stats.get(key) ?? { tools, steps: [], last: -Infinity, sessions: new Set<string>(), count: 0 };
          s.sessions.add(session);
          s.count += 1;
          if (window[0]!.at >= s.last) {
            s.last = window[0]!.at;
            s.steps = window.map(({ tool, step, input }) => (input === undefined ? { tool, step } : { tool, step, input }));
          }
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
      steps: s.steps,
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

/** Human-readable content for the procedure knowledge a recipe becomes, with the inputs its steps last ran with. */
export function recipeContent(recipe: Recipe): string {
  const steps = recipe.steps.map((s) => (s.input === undefined ? s.step : `${s.tool} \`${s.input}\``));
  return `Recipe: ${steps.join(' → ')} (succeeded in ${recipe.sessions.length} sessions)`;
}

/** Characters of an input kept in a recipe: a command line, a path, a short query. */
const INPUT_CHARS = 200;
const SHELL_TOOLS = /^(bash|shell|local_shell|exec_command|run_command|terminal|sh)$/i;
const PACKAGE_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'npx', 'uv', 'poetry', 'cargo', 'go', 'make', 'docker', 'kubectl', 'git']);

/**
 * The name of a step: the tool alone, or for a shell-like tool (an input with a `command`) the tool and the
 * command's head — the program and its subcommand (`git commit`, `npm run build`, `ls`), without flags and paths.
 */
export function stepName(tool: string, input: string | undefined): { step: string; command?: string } {
  const command = commandOf(tool, input);
  if (command === undefined) return { step: tool };
  // The command a chain runs last is the one that does the work (`cd app && npm publish`).
  const last = command.split(/&&|\|\||;/u).map((x) => x.trim()).filter((x) => x !== '').pop() ?? command;
  const words = last.split(/\s+/u).filter((w) => !/^\w+=/u.test(w));
  const head: string[] = [];
  for (const w of words) {
    if (head.length > 0 && (w.startsWith('-') || /[/.'"$]/u.test(w))) break;
    head.push(w);
    const program = head[0]!;
    if (head.length >= (PACKAGE_RUNNERS.has(program) && (head[1] === 'run' || head[1] === 'exec') ? 3 : PACKAGE_RUNNERS.has(program) ? 2 : 1)) break;
  }
  return { step: `${tool}: ${head.join(' ')}`, command };
}

/** A JSON input reduced to what names its target (a path, a URL, a query); other inputs as given. */
function inputSummary(input: string | undefined): string | undefined {
  if (input === undefined || !input.trim().startsWith('{')) return input?.trim() || undefined;
  try {
    const v = JSON.parse(input) as Record<string, unknown>;
    for (const k of ['file_path', 'path', 'notebook_path', 'url', 'query', 'pattern', 'name']) {
      if (typeof v[k] === 'string') return v[k];
    }
  } catch {
    // A clipped or broken JSON input names nothing reliably.
  }
  return undefined;
}

function commandOf(tool: string, input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const body = input.trim();
  if (body.startsWith('{')) {
    try {
      const v = JSON.parse(body) as Record<string, unknown>;
      const c = v['command'] ?? v['cmd'];
      if (typeof c === 'string') return c.trim();
      if (Array.isArray(c)) return c.filter((x) => typeof x === 'string').join(' ').replace(/^(bash|sh) -l?c /u, '').trim();
    } catch {
      return undefined;
    }
    return undefined;
  }
  return SHELL_TOOLS.test(tool) && body !== '' ? body : undefined;
}

// Steps that only look or check: they end no task. Tools by name; shell commands by program and subcommand.
const LOOK_TOOLS = /^(read|view|cat|grep|glob|ls|list\w*|search\w*|find\w*|fetch|webfetch|websearch|web_search|todoread|todowrite|notebookread|get\w*|\w*(status|diff|lint|tests?|check|typecheck)\w*)$/i;
const LOOK_COMMANDS = /^(ls|cat|head|tail|less|more|grep|rg|find|fd|pwd|echo|which|wc|tree|stat|file|du|df|ps|env|date|whoami|git (status|diff|log|show|branch|fetch|remote|blame)|(npm|pnpm|yarn|bun) (run )?(lint|test|check|typecheck|format:check)|npx (tsc|eslint|vitest|jest|prettier)|(pytest|vitest|jest|eslint|tsc|mypy|ruff)|(cargo|go) (check|test|vet|clippy)|make (test|check|lint))$/i;

/** Whether a step can finish a task: it is neither a look nor a check (see `LOOK_TOOLS`, `LOOK_COMMANDS`). */
export function changesSomething(step: { tool: string; step: string }): boolean {
  const command = step.step.startsWith(`${step.tool}: `) ? step.step.slice(step.tool.length + 2) : undefined;
  if (command !== undefined) return !LOOK_COMMANDS.test(command);
  return !LOOK_TOOLS.test(step.tool);
}

interface Call {
  tool: string;
  step: string;
  input?: string;
  at: number;
}

function successfulRuns(calls: readonly ToolEpisode[]): Call[][] {
  const runs: Call[][] = [];
  let run: Call[] = [];
  for (const c of calls) {
    if (c.ok) {
      const { step, command } = stepName(c.tool, c.input);
      const input = (command ?? inputSummary(c.input))?.slice(0, INPUT_CHARS);
      run.push(input === undefined ? { tool: c.tool, step, at: c.at } : { tool: c.tool, step, input, at: c.at });
    } else {
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
