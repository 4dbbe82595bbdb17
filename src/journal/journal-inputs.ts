/** Zod schemas of the journal operations' inputs; the MCP tools and CLI commands can reuse them as they are. */
import { TidepoolError } from '../core/errors.js';
import { z } from 'zod';
import { isClockTime, isJournalDate } from './journal-date.js';
import { TideConfigPatchSchema } from './tide-config.js';

const Root = z.string().min(1).max(4096).describe('Workspace directory; memory lives in <root>/memory/');
const Day = z.string().refine(isJournalDate, 'expected a real date YYYY-MM-DD');

/** `journal search`: query over hot (default) or all tiers. */
export const JournalSearchInput = z.object({
  root: Root,
  query: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('Words or "quoted phrases"; case-insensitive; Chinese words match as written'),
  scope: z
    .enum(['hot', 'all'])
    .default('hot')
    .describe('hot: MEMORY.md, TODO.md and hot days; all: adds the cold tier'),
  limit: z
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe('Most files returned; default searchLimit from .tide.json'),
});

/** `journal read`: one whole day, default today. */
export const JournalReadInput = z.object({ root: Root, date: Day.optional() });

/** `journal add`: append a section to a day (default today) at a time (default now). */
export const JournalAddInput = z.object({
  root: Root,
  heading: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('What was done; a leading 【HH:MM …】 is kept, otherwise the time is added'),
  content: z
    .string()
    .max(65_536)
    .refine((s) => s.trim() !== '', 'must not be empty (lint flags empty sections)')
    .describe('Section body in markdown; no # or ## headings'),
  date: Day.optional(),
  time: z.string().refine(isClockTime, 'expected HH:MM').optional(),
});

/** Operations that take only the workspace: `index`, `lint`, `stats`. */
export const JournalRootInput = z.object({ root: Root });

/** `journal tend`: the tiering pass; `dryRun` reports and changes nothing. */
export const JournalTendInput = z.object({ root: Root, dryRun: z.boolean().default(false) });

/**
 * The dry-run flag of the `journal_tend` tool: our snake_case `dry_run`, or `dryRun` as dsh-memory-tide's
 * `memory_tend` named it (SEEDS §2.5), so an agent taught on dsh keeps working. One meaning; see {@link tendDryRun}.
 */
export const JournalTendFlags = {
  dry_run: z.boolean().optional().describe('report the plan and change nothing'),
  dryRun: z.boolean().optional().describe('the same as dry_run (the name dsh-memory-tide used)'),
};

/** The dry-run flag from either name (default false); both given and different is an error, never a guess. */
export function tendDryRun(args: { dry_run?: boolean | undefined; dryRun?: boolean | undefined }): boolean {
  if (args.dry_run !== undefined && args.dryRun !== undefined && args.dry_run !== args.dryRun)
    throw new TidepoolError('invalid_input', 'dry_run and dryRun disagree: give one of them (they are the same flag)');
  return args.dry_run ?? args.dryRun ?? false;
}

/** `journal restore-day`: bring an archived day back from the database into the hot tier. */
export const JournalRestoreInput = z.object({ root: Root, date: Day });

/** `journal config`: read, patch or reset `.tide.json`. */
export const JournalConfigInput = z.object({
  root: Root,
  patch: TideConfigPatchSchema.optional(),
  reset: z.boolean().default(false),
});
