/** The `journal` toolset (潮汐记忆): journal_search, journal_read, journal_add, journal_index, journal_lint, journal_tend, journal_stats. */
import {
  JournalAddInput,
  JournalReadInput,
  JournalSearchInput,
  JournalTendFlags,
  renderAddResult,
  renderIndexResult,
  renderLintReport,
  renderReadResult,
  renderSearchResult,
  renderStats,
  renderTendReport,
  tendDryRun,
} from '../../app/journal-service.js';
import { TidepoolError } from '../../core/errors.js';
import type { ToolOutput } from './tool-result.js';
import { defined } from '../../core/defined.js';
import { addTool, type Toolset } from './toolset.js';

const root = JournalSearchInput.shape.root
  .optional()
  .describe(
    "workspace directory: one registered to this memory's space (tidepool journal workspaces --root DIR); default the local " +
      "server's working directory, or the space's only registered workspace",
  );

/** A tool output from a journal result and its text rendering (which ends with a newline). */
function out(result: object, text: string): ToolOutput {
  return { text: text.replace(/\n$/, ''), data: { ...result } };
}

/**
 * The journal toolset. Every workspace is confined to those registered to the caller's space, plus the server's
 * working directory for the local user only (DESIGN §10): a token of one space never reaches another space's diary.
 */
/**
 * Hints of the journal tools that read. They never change what the journal says; their bookkeeping is not an edit:
 * the first call in a workspace lays out an empty memory/ skeleton (SEEDS §2.3), and lookups are counted for tiering.
 */
const READ_ONLY = { readOnly: true, idempotent: true } as const;

export const toolset: Toolset = {
  name: 'journal',
  summary:
    'journal_search, journal_read, journal_add, journal_index, journal_lint, journal_tend, journal_stats: hot/cold markdown memory in memory/',
  guide:
    "The workspace's memory/ folder is a diary: read memory/MEMORY.md and the hot index at session start, journal_search " +
    'for older events (scope "all" adds the cold tier), journal_add a timed section after each piece of work, journal_tend at the end of the day.',
  tools: [
    'journal_search',
    'journal_read',
    'journal_add',
    'journal_index',
    'journal_lint',
    'journal_tend',
    'journal_stats',
  ],
  register(server, { memory, journalHome }) {
    const journal = memory.journal({ confined: true, ...(journalHome !== undefined ? { home: journalHome } : {}) });
    // The workspace an agent means when it names none: the local server's directory (SEEDS §2.3), else the space's
    // only registered one; a token caller with several must say which.
    const at = async (r: string | undefined): Promise<string> => {
      if (r !== undefined) return r;
      if (journalHome !== undefined) return journalHome;
      const roots = await memory.journalRoots();
      if (roots.length === 1) return roots[0]!;
      throw new TidepoolError(
        'invalid_input',
        roots.length === 0
          ? 'root: no journal workspace is registered to this space (tidepool journal workspaces --root DIR --space S registers one)'
          : `root: required, this space has ${roots.length} registered workspaces: ${roots.join(', ')}`,
        { field: 'root' },
      );
    };

    addTool(server, {
      name: 'journal_search',
      title: 'Search the journal',
      description:
        'Find lines in MEMORY.md, TODO.md and the hot day files (scope "all" adds the cold archive), with the ## heading and a few ' +
        'lines of context around each match. Words match case-insensitively, Chinese words as written. Each file returned counts as looked up today.',
      input: {
        query: JournalSearchInput.shape.query,
        scope: JournalSearchInput.shape.scope,
        limit: JournalSearchInput.shape.limit,
        root,
      },
      hints: READ_ONLY,
      async run(args) {
        const r = await journal.search({ ...defined(args), query: args.query, root: await at(args.root) });
        return out(r, renderSearchResult(r));
      },
    });

    addTool(server, {
      name: 'journal_read',
      title: 'Read a day',
      description:
        'Read one whole day file (default today) from whichever tier holds it. Counts as a lookup.',
      input: { date: JournalReadInput.shape.date.describe('YYYY-MM-DD, default today'), root },
      hints: READ_ONLY,
      async run(args) {
        const r = await journal.read({ ...defined(args), root: await at(args.root) });
        return out(r, renderReadResult(r));
      },
    });

    addTool(server, {
      name: 'journal_add',
      title: 'Add a diary section',
      description:
        'Append a section "## 【HH:MM heading】" with `content` to a day (default today, time default now). Use it after each piece ' +
        'of work: what was done, why, what is left. No # or ## headings in content; credentials are refused.',
      input: {
        heading: JournalAddInput.shape.heading,
        content: JournalAddInput.shape.content,
        date: JournalAddInput.shape.date.describe('YYYY-MM-DD, default today'),
        time: JournalAddInput.shape.time.describe('HH:MM, default now'),
        root,
      },
      hints: { readOnly: false, idempotent: true },
      async run(args) {
        const r = await journal.add({
          ...defined(args),
          heading: args.heading,
          content: args.content,
          root: await at(args.root),
        });
        return out(r, renderAddResult(r));
      },
    });

    addTool(server, {
      name: 'journal_index',
      title: 'Rebuild the journal indexes',
      description:
        'Rebuild memory/archive/hot/INDEX.md and cold/INDEX.md from the day files, and re-index every section for recall (after edits by hand).',
      input: { root },
      hints: { readOnly: false, idempotent: true },
      async run(args) {
        const r = await journal.index({ root: await at(args.root) });
        return out(r, renderIndexResult(r));
      },
    });

    addTool(server, {
      name: 'journal_lint',
      title: 'Check the journal',
      description:
        'Health check: headings without a time, duplicate or empty sections, long sections, dead links, stale indexes, days in two places.',
      input: { root },
      hints: READ_ONLY,
      async run(args) {
        const r = await journal.lint({ root: await at(args.root) });
        return out(r, renderLintReport(r));
      },
    });

    addTool(server, {
      name: 'journal_tend',
      title: 'Tend the journal',
      description:
        'The daily tiering pass: old unused days sink to cold, looked-up ones stay or come back pinned, cold overflow goes to the ' +
        'archive database (restorable). `dry_run: true` only reports the plan. Content is never changed.',
      input: { ...JournalTendFlags, root },
      hints: { readOnly: false, idempotent: true },
      async run(args) {
        const r = await journal.tend({ root: await at(args.root), dryRun: tendDryRun(args) });
        return out(r, renderTendReport(r));
      },
    });

    addTool(server, {
      name: 'journal_stats',
      title: 'Journal statistics',
      description: 'Days per tier, lookup days per file, pins, archived days and the last tend.',
      input: { root },
      hints: READ_ONLY,
      async run(args) {
        const r = await journal.stats({ root: await at(args.root) });
        return out(r, renderStats(r));
      },
    });
  },
};
