/** Shared state of the journal operations and the first-use bootstrap of a workspace's `memory/` (SEEDS §2.3). */
import type { Clock } from '../core/clock.js';
import { TidepoolError } from '../core/errors.js';
import { findSecrets } from '../script/secret-scan.js';
import { syncAgentsHint, type AgentsHintKind } from './agents-hint.js';
import { assertTimeZone, dayInZone } from './journal-date.js';
import type { JournalHost } from './journal-port.js';
import { MemoryDir } from './memory-dir.js';
import { MEMORY_SKELETON, TODO_SKELETON } from './memory-skeleton.js';
import { DEFAULT_TIDE_CONFIG, parseTideConfig, renderTideConfig, type TideConfig } from './tide-config.js';
import {
  emptyUsageBook,
  parseUsageBook,
  recordLookups,
  renderUsageBook,
  type UsageBook,
} from './usage-book.js';
import { WorkspaceLocks } from './workspace-lock.js';

/** A step of a day-file move, reported to `onMoveStep` (a crash right after `copied` is the case repair handles). */
export type MoveStep = 'copied' | 'removed';

/** Options of a Journal. */
export interface JournalOptions {
  host: JournalHost;
  clock: Clock;
  /** IANA zone for "today" and for the time in new headings; default `UTC`. */
  timeZone?: string;
  /** Credential detector for `add`; default: `findSecrets` (`src/script/secret-scan.ts`), the one `remember` uses. */
  detectSecrets?: SecretDetector;
  /** Body of the AGENTS.md hint block; default DEFAULT_AGENTS_HINT. */
  agentsHintContent?: string;
  /** Observer of each move step; throwing from it stops the tend exactly there, as a crash would. */
  onMoveStep?: (step: MoveStep, date: string) => void;
  /**
   * Decides whether a workspace (its real path) may be used at all, e.g. only registered workspaces for a remote
   * caller (DESIGN §10); a refusal throws `forbidden` before anything is read or created. Default: every directory.
   */
  allowRoot?: (root: string) => boolean | Promise<boolean>;
}

/** A credential found in text: its kind is what a refusal names. */
export interface SecretFinding {
  kind: string;
}

/** Detects credentials in text; `findSecrets` from `src/script/secret-scan.ts` fits this shape. */
export type SecretDetector = (text: string) => readonly SecretFinding[];

/** What every operation receives. */
export interface JournalContext {
  host: JournalHost;
  clock: Clock;
  timeZone: string;
  detectSecrets: SecretDetector;
  agentsHintContent: string | undefined;
  onMoveStep: ((step: MoveStep, date: string) => void) | undefined;
  allowRoot: ((root: string) => boolean | Promise<boolean>) | undefined;
  locks: WorkspaceLocks;
  registered: Set<string>;
}

/** Builds the context from options, validating the time zone. */
export function createJournalContext(opts: JournalOptions): JournalContext {
  return {
    host: opts.host,
    clock: opts.clock,
    timeZone: assertTimeZone(opts.timeZone ?? 'UTC'),
    detectSecrets: opts.detectSecrets ?? findSecrets,
    agentsHintContent: opts.agentsHintContent,
    onMoveStep: opts.onMoveStep,
    allowRoot: opts.allowRoot,
    locks: new WorkspaceLocks(),
    registered: new Set(),
  };
}

/** The journal's calendar day at `now` (default: the clock's now). */
export function journalToday(ctx: JournalContext, now?: number): string {
  return dayInZone(now ?? ctx.clock.now(), ctx.timeZone);
}

/** An opened workspace. */
export interface Workspace {
  dir: MemoryDir;
  config: TideConfig;
  /** Unknown keys of `.tide.json`, kept on rewrite. */
  extra: Record<string, unknown>;
  configWarnings: string[];
  /** What the first-use bootstrap created now (empty on later calls). */
  created: string[];
  /** What happened to AGENTS.md, when the bootstrap synced it. */
  hint?: AgentsHintKind;
}

/**
 * Opens the workspace at `root`. With `bootstrap`, lays out `memory/` on first use: folders, `.tide.json` with the
 * defaults, `.usage.json`, and the annotated MEMORY.md and TODO.md; an existing file is never overwritten.
 */
export async function openWorkspace(
  ctx: JournalContext,
  root: string,
  opts: { bootstrap: boolean },
): Promise<Workspace> {
  // A confined caller (MCP, an HTTP token) learns nothing about folders it may not use: a missing folder reads like
  // a refused one, and the answer names the root as the caller spelled it, never where a link led (issue #6).
  const refused = () =>
    new TidepoolError(
      'forbidden',
      `root: ${root} is not the server's directory or a registered workspace (tidepool journal workspaces --root <dir> registers one)`,
      { field: 'root' },
    );
  let dir: MemoryDir;
  try {
    dir = await MemoryDir.open(root);
  } catch (e) {
    if (ctx.allowRoot && e instanceof TidepoolError && e.code === 'invalid_input') throw refused();
    throw e;
  }
  if (ctx.allowRoot && !(await ctx.allowRoot(dir.root))) throw refused();
  const had = await dir.exists();
  const created: string[] = [];
  if (opts.bootstrap) {
    created.push(...(await dir.ensureLayout()));
    const files: [string, string][] = [
      ['.tide.json', renderTideConfig({ ...DEFAULT_TIDE_CONFIG })],
      ['.usage.json', renderUsageBook(emptyUsageBook())],
      ['MEMORY.md', MEMORY_SKELETON],
      ['TODO.md', TODO_SKELETON],
    ];
    for (const [rel, text] of files) if (await dir.createExclusive(rel, text)) created.push(rel);
  }
  const parsed = parseTideConfig(had || opts.bootstrap ? await dir.readText('.tide.json') : undefined);
  const ws: Workspace = {
    dir,
    config: parsed.config,
    extra: parsed.extra,
    configWarnings: parsed.warnings,
    created,
  };
  if (had || opts.bootstrap) {
    if (!ctx.registered.has(dir.root)) {
      await ctx.host.registerWorkspace(dir.root);
      ctx.registered.add(dir.root);
    }
    if (!had && parsed.config.agentsHint) ws.hint = (await syncHint(ctx, ws)).kind;
  }
  return ws;
}

/** Brings the AGENTS.md block in line with the workspace's `agentsHint`. */
export async function syncHint(ctx: JournalContext, ws: Workspace) {
  return syncAgentsHint(ws.dir.root, {
    enabled: ws.config.agentsHint,
    ...(ctx.agentsHintContent !== undefined ? { content: ctx.agentsHintContent } : {}),
  });
}

/** Reads `.usage.json`. */
export async function loadUsage(dir: MemoryDir): Promise<{ book: UsageBook; corrupt: boolean }> {
  return parseUsageBook(await dir.readText('.usage.json'));
}

/** Writes `.usage.json`; a corrupt file is first kept as `.usage.json.corrupt`, so no count is lost unseen. */
export async function saveUsage(dir: MemoryDir, book: UsageBook, corrupt: boolean): Promise<void> {
  if (corrupt) {
    const bad = await dir.readBytes('.usage.json');
    if (bad) await dir.writeAtomic('.usage.json.corrupt', bad);
  }
  await dir.writeAtomic('.usage.json', renderUsageBook(book));
}

/** Counts one lookup today for each file name (once per day, SEEDS §2.6); returns the names counted now. */
export async function countLookups(
  ctx: JournalContext,
  ws: Workspace,
  names: readonly string[],
  today: string,
): Promise<string[]> {
  if (names.length === 0) return [];
  return ctx.locks.run(ws.dir.path, async () => {
    const { book, corrupt } = await loadUsage(ws.dir);
    const r = recordLookups(book, names, today);
    if (r.counted.length > 0) await saveUsage(ws.dir, r.book, corrupt);
    return r.counted;
  });
}
