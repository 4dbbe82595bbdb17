/**
 * The few-line memory hint kept in the workspace's AGENTS.md between Tidepool markers: created, updated only when
 * it changes, removed cleanly, never touching a byte outside the block (SEEDS §2.10, with Tidepool's markers).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { TidepoolError } from '../core/errors.js';
import { resolveWorkspaceRoot, writeFileAtomic } from './memory-dir.js';

/** Opening marker of the block. */
export const AGENTS_HINT_BEGIN = '<!-- tidepool:begin -->';
/** Closing marker of the block. */
export const AGENTS_HINT_END = '<!-- tidepool:end -->';
/**
 * Markers of the block dsh-memory-tide kept in AGENTS.md (SEEDS §2.10). A workspace that used it holds one: the
 * sync takes that block over (rewritten with our markers, or removed) instead of adding a second hint beside it.
 */
export const DSH_HINT_BEGIN = '<!-- dsh-memory-tide:begin -->';
export const DSH_HINT_END = '<!-- dsh-memory-tide:end -->';

/** Title of an AGENTS.md the hint creates (SEEDS §2.10). */
export const AGENTS_TITLE = '# AGENTS.md';

/** The hint: where memory is, what to read first, which tools, timed headings, no credentials (SEEDS §2.10). */
export const DEFAULT_AGENTS_HINT = `## Memory (Tidepool journal)

- This workspace's memory is in \`memory/\`. At the start of a session read \`memory/MEMORY.md\` and the last two days
  (listed in \`memory/archive/hot/INDEX.md\`).
- For older events use \`journal_search\` (\`scope: "all"\` adds the cold archive); write back with \`journal_add\`.
- Day-file section headings carry the time: \`## 【14:30 what was done】\`.
- Never write credentials (passwords, tokens, keys) into memory.`;

/** What a sync did. */
export type AgentsHintKind =
  | 'created'
  | 'appended'
  | 'updated'
  | 'unchanged'
  | 'removed'
  | 'deleted'
  | 'absent'
  | 'malformed'
  | 'skipped_symlink';

/** Options of a sync: `enabled` is the workspace's `agentsHint`; `content` defaults to DEFAULT_AGENTS_HINT. */
export interface AgentsHintOptions {
  enabled: boolean;
  content?: string;
}

function blockText(content: string, eol: string): string {
  return [AGENTS_HINT_BEGIN, ...content.trim().split(/\r?\n/), AGENTS_HINT_END].join(eol);
}

/**
 * Pure core of the sync: the file's next text (`null` deletes it, `undefined` leaves it absent) and what happened.
 * A begin marker without its end marker is `malformed` and nothing is changed.
 */
export function applyAgentsHint(
  current: string | undefined,
  opts: AgentsHintOptions,
): { kind: AgentsHintKind; next: string | null | undefined } {
  const eol = current?.includes('\r\n') ? '\r\n' : '\n';
  const block = blockText(opts.content ?? DEFAULT_AGENTS_HINT, eol);
  if (current === undefined) {
    return opts.enabled
      ? { kind: 'created', next: `${AGENTS_TITLE}${eol}${eol}${block}${eol}` }
      : { kind: 'absent', next: undefined };
  }
  const ours = findBlock(current, AGENTS_HINT_BEGIN, AGENTS_HINT_END);
  const dsh = findBlock(current, DSH_HINT_BEGIN, DSH_HINT_END);
  if (ours === 'malformed' || dsh === 'malformed') return { kind: 'malformed', next: current };
  // Trigger: both blocks present. Why: one hint, never two. Outcome: ours is kept, dsh's taken out first.
  if (ours && dsh) {
    const rest = cutBlock(current, dsh, eol);
    return { ...applyAgentsHint(rest, opts), ...(opts.enabled ? { kind: 'updated' as const } : {}) };
  }
  const found = ours ?? dsh;
  const begin = found ? found.begin : -1;
  const endAt = found ? found.end : -1;
  if (begin < 0) {
    if (!opts.enabled) return { kind: 'unchanged', next: current };
    let base = current;
    // Always one separator line of our own, so that removal can take back exactly what was added.
    if (base !== '' && !base.endsWith('\n')) base += eol;
    if (base !== '') base += eol;
    return { kind: 'appended', next: `${base}${block}${eol}` };
  }
  const end = endAt;
  if (opts.enabled) {
    if (current.slice(begin, end) === block) return { kind: 'unchanged', next: current };
    return { kind: 'updated', next: current.slice(0, begin) + block + current.slice(end) };
  }
  const rest = cutBlock(current, { begin, end }, eol);
  const shell = rest.trim();
  return shell === '' || shell === AGENTS_TITLE
    ? { kind: 'deleted', next: null }
    : { kind: 'removed', next: rest };
}

/** Where a marked block starts and ends (past its end marker); `malformed` when one marker lacks the other. */
function findBlock(text: string, open: string, close: string): { begin: number; end: number } | 'malformed' | undefined {
  const begin = text.indexOf(open);
  const endAt = begin < 0 ? -1 : text.indexOf(close, begin);
  if ((begin >= 0 && endAt < 0) || (begin < 0 && text.includes(close))) return 'malformed';
  return begin < 0 ? undefined : { begin, end: endAt + close.length };
}

/** The text without the block, and without what appending it added: its line end and the blank line above it. */
function cutBlock(text: string, at: { begin: number; end: number }, eol: string): string {
  let before = text.slice(0, at.begin);
  let after = text.slice(at.end);
  if (after.startsWith('\r\n')) after = after.slice(2);
  else if (after.startsWith('\n')) after = after.slice(1);
  if (before.endsWith(`${eol}${eol}`)) before = before.slice(0, -eol.length);
  return before + after;
}

/**
 * Syncs the hint block of `<root>/AGENTS.md`: creates the file (with a `# AGENTS.md` title) or appends the block
 * when enabled, rewrites only when the block's text changes, and when disabled removes the block and deletes a file
 * left holding only the shell. A symlinked AGENTS.md is left alone.
 * @example await syncAgentsHint('/work/app', { enabled: config.agentsHint })
 */
export async function syncAgentsHint(
  root: string,
  opts: AgentsHintOptions,
): Promise<{ kind: AgentsHintKind; path: string }> {
  const file = path.join(await resolveWorkspaceRoot(root), 'AGENTS.md');
  let current: string | undefined;
  try {
    const st = await fs.lstat(file);
    if (st.isSymbolicLink()) return { kind: 'skipped_symlink', path: file };
    if (!st.isFile())
      throw new TidepoolError('conflict', `${file} is not a regular file`, { details: { path: file } });
    current = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const { kind, next } = applyAgentsHint(current, opts);
  try {
    if (next === null) await fs.unlink(file);
    else if (next !== undefined && next !== current) await writeFileAtomic(file, next);
  } catch (e) {
    throw new TidepoolError('io_failed', `AGENTS.md: ${(e as Error).message}`, { cause: e });
  }
  return { kind, path: file };
}
