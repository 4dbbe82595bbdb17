/** `tidepool journal <tool>`: the 潮汐记忆 hot/cold markdown journal of a workspace (default: the current directory). */
import type { Command } from 'commander';
import type { Tidepool } from '../../app/tidepool.js';
import {
  renderAddResult,
  renderConfigResult,
  renderIndexResult,
  renderLintReport,
  renderReadResult,
  renderRestoreResult,
  renderSearchResult,
  renderStats,
  renderTendReport,
  renderTickReport,
  renderWorkspaces,
} from '../../app/journal-service.js';
import { TidepoolError } from '../../core/errors.js';
import {
  choiceOption,
  intOption,
  print,
  readStdin,
  withCommon,
  withMemory,
  type CliDeps,
  type CommonOptions,
} from './cli-deps.js';

/** Options of every journal command. */
type JournalOptions = CommonOptions & { root?: string };

/** Adds --root (and the common options) to a journal subcommand. */
function withRoot(cmd: Command): Command {
  return withCommon(
    cmd.option(
      '--root <dir>',
      'workspace whose memory/ is used (default: the current directory); naming it registers it',
    ),
  );
}

/**
 * Opens the memory, runs `fn` with the root to use, then registers an explicitly named root (so auto-tend and MCP
 * callers know it). Registering after success keeps a refused command from changing the store (issue #6).
 */
async function run(
  deps: CliDeps,
  o: JournalOptions,
  fn: (m: Tidepool, root: string) => Promise<void>,
): Promise<void> {
  await withMemory(deps, o, async (m) => {
    await fn(m, o.root ?? deps.env.cwd);
    if (o.root !== undefined) await m.registerJournalWorkspace(o.root);
  });
}

/** Prints a result object (`--json`) or its rendering, which already ends with a newline. */
function show(deps: CliDeps, o: JournalOptions, value: object, text: string): void {
  print(deps, o, value, () => text.replace(/\n$/, ''));
}

/**
 * The body from the words after the heading: joined by spaces as the shell split them, except that an argument
 * starting a markdown list item (`- `, `* `, `1. `) starts a new line, so `journal add "h" "- a" "- b"` is a list.
 */
function joinContent(words: readonly string[]): string {
  return words.reduce((body, w, i) => (i === 0 ? w : `${body}${/^(?:[-*+]|\d+\.)\s/.test(w) ? '\n' : ' '}${w}`), '');
}

/** `--set key=value`: numbers and booleans as JSON, anything else as a string (the schema names a bad one). */
function parsePatch(pairs: readonly string[] | undefined): Record<string, unknown> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const patch: Record<string, unknown> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0)
      throw new TidepoolError('invalid_input', `--set expects key=value, got "${p}"`, { field: 'set' });
    const raw = p.slice(eq + 1).trim();
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // Not JSON: kept as text, and the config schema reports the key if text is wrong there.
    }
    patch[p.slice(0, eq).trim()] = value;
  }
  return patch;
}

/** Registers `journal` and its subcommands. */
export function registerJournalCommand(program: Command, deps: CliDeps): void {
  const journal = program
    .command('journal')
    .description(
      'hot/cold markdown memory of a workspace (memory/): search, read, add, index, lint, tend, stats, restore-day, workspaces, config',
    );

  withRoot(
    journal
      .command('search')
      .description(
        'search MEMORY.md, TODO.md and hot days (--scope all adds cold); each file returned counts a lookup',
      )
      .argument('<query...>', 'words or "quoted phrases"; Chinese words match as written')
      .option('--scope <hot|all>', 'hot (default) or all', 'hot')
      .option('--limit <n>', 'most files (default searchLimit from .tide.json)'),
  ).action(async (words: string[], o: JournalOptions & { scope: string; limit?: string }) => {
    await run(deps, o, async (m, root) => {
      const limit = intOption('limit', o.limit);
      const r = await m
        .journal()
        .search({
          root,
          query: words.join(' '),
          scope: choiceOption('scope', o.scope, ['hot', 'all'] as const) ?? 'hot',
          ...(limit !== undefined ? { limit } : {}),
        });
      show(deps, o, r, renderSearchResult(r));
    });
  });

  withRoot(
    journal
      .command('read')
      .description('print a whole day (default today) from whichever tier holds it')
      .option('--date <YYYY-MM-DD>', 'the day'),
  ).action(async (o: JournalOptions & { date?: string }) => {
    await run(deps, o, async (m, root) => {
      const r = await m.journal().read({ root, ...(o.date !== undefined ? { date: o.date } : {}) });
      show(deps, o, r, renderReadResult(r));
      if (r.kind === 'missing') process.exitCode = 3;
    });
  });

  withRoot(
    journal
      .command('add')
      .description(
        'append "## 【HH:MM heading】" and content to a day (default today); content from the arguments, --content or stdin',
      )
      .argument('<heading>', 'what was done')
      .argument('[content...]', 'section body (markdown, no # or ## headings); a word starting with "-" is text, and each argument that starts a list item ("- a" "- b") is a line of its own')
      .option('--content <text>', 'section body')
      .option('--date <YYYY-MM-DD>', 'the day (default today)')
      .option('--time <HH:MM>', 'the time in the heading (default now)'),
  ).action(
    async (
      heading: string,
      words: string[],
      o: JournalOptions & { content?: string; date?: string; time?: string },
    ) => {
      await run(deps, o, async (m, root) => {
        let content = o.content ?? (words.length > 0 ? joinContent(words) : undefined);
        if (content === undefined) {
          if (deps.stdin.isTTY)
            throw new TidepoolError(
              'invalid_input',
              'content: give it as an argument, with --content or on stdin',
              { field: 'content' },
            );
          content = await readStdin(deps);
        }
        const r = await m.journal().add({
          root,
          heading,
          content,
          ...(o.date !== undefined ? { date: o.date } : {}),
          ...(o.time !== undefined ? { time: o.time } : {}),
        });
        show(deps, o, r, renderAddResult(r));
      });
    },
  );

  withRoot(
    journal.command('index').description('rebuild both INDEX.md files and re-index every section for recall'),
  ).action(async (o: JournalOptions) => {
    await run(deps, o, async (m, root) => {
      const r = await m.journal().index({ root });
      show(deps, o, r, renderIndexResult(r));
    });
  });

  withRoot(
    journal.command('lint').description('health check; exits 1 when something above info is found'),
  ).action(async (o: JournalOptions) => {
    await run(deps, o, async (m, root) => {
      const r = await m.journal().lint({ root });
      show(deps, o, r, renderLintReport(r));
      if (!r.ok) process.exitCode = 1;
    });
  });

  withRoot(
    journal
      .command('tend')
      .description('the tiering pass: legacy migration, sinking, pins, cold overflow to the archive database')
      .option('--dry-run', 'report the plan and change nothing')
      .option('--all', 'tend every registered workspace not tended today, as the auto-tend would'),
  ).action(async (o: JournalOptions & { dryRun?: boolean; all?: boolean }) => {
    if (o.all && (o.dryRun || o.root !== undefined))
      throw new TidepoolError('invalid_input', '--all takes neither --dry-run nor --root', { field: 'all' });
    await run(deps, o, async (m, root) => {
      if (o.all) {
        const r = await m.startJournalAutoTend({ start: false }).tick();
        show(deps, o, r, renderTickReport(r));
        if (r.failed.length > 0) process.exitCode = 1;
        return;
      }
      const r = await m.journal().tend({ root, dryRun: o.dryRun ?? false });
      show(deps, o, r, renderTendReport(r));
    });
  });

  withRoot(
    journal.command('stats').description('days per tier, lookups per file, pins, archived days, last tend'),
  ).action(async (o: JournalOptions) => {
    await run(deps, o, async (m, root) => {
      const r = await m.journal().stats({ root });
      show(deps, o, r, renderStats(r));
    });
  });

  withRoot(
    journal
      .command('restore-day')
      .description('bring a day back from the archive database into the hot tier, pinned')
      .argument('[date]', 'the day, YYYY-MM-DD')
      .option('--date <YYYY-MM-DD>', 'the day'),
  ).action(async (date: string | undefined, o: JournalOptions & { date?: string }) => {
    await run(deps, o, async (m, root) => {
      const day = o.date ?? date;
      if (day === undefined)
        throw new TidepoolError('invalid_input', 'date: give the day to restore (YYYY-MM-DD)', {
          field: 'date',
        });
      const r = await m.journal().restoreDay({ root, date: day });
      show(deps, o, r, renderRestoreResult(r));
      if (r.kind === 'not_found') process.exitCode = 3;
    });
  });

  withRoot(
    journal
      .command('workspaces')
      .description('every workspace known to this memory space, with its auto-tend state'),
  ).action(async (o: JournalOptions) => {
    await withMemory(deps, o, async (m) => {
      // Naming a root here is how a workspace is registered by hand: first register, then list.
      if (o.root !== undefined) await m.registerJournalWorkspace(o.root);
      const r = await m.journal().workspaces();
      show(deps, o, r, renderWorkspaces(r));
    });
  });

  withRoot(
    journal
      .command('config')
      .description("show or change the workspace's .tide.json")
      .option('--set <key=value...>', 'change keys, e.g. --set hotKeepDays=10 autoTend=false')
      .option('--reset', "restore this workspace's defaults"),
  ).action(async (o: JournalOptions & { set?: string[]; reset?: boolean }) => {
    await run(deps, o, async (m, root) => {
      const patch = parsePatch(o.set);
      const r = await m.journal().config({ root, ...(patch ? { patch } : {}), reset: o.reset ?? false });
      show(deps, o, r, renderConfigResult(r));
    });
  });
}
