/** Journal health checks, pure: untimed headings, duplicate and empty sections, dead pointers, stale indexes (SEEDS §2.7). */
import { posix } from 'node:path';
import { parseDayFile, splitLines, visibleText } from './day-file.js';
import { parseIndexDates } from './tier-index.js';
import type { DayLocation, Tier } from './tide-policy.js';

/** Kinds of lint issue. */
export const LINT_KINDS = [
  'untimed_heading',
  'duplicate_section',
  'empty_section',
  'long_section',
  'dead_pointer',
  'stale_index',
  'duplicate_day',
  'legacy_day',
  'bad_config',
  'bad_usage',
] as const;
/** One kind of lint issue. */
export type LintKind = (typeof LINT_KINDS)[number];

/** One finding. */
export interface LintIssue {
  kind: LintKind;
  severity: 'error' | 'warning' | 'info';
  /** Path relative to `memory/`. */
  file: string;
  line?: number;
  heading?: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A markdown file to check. */
export interface LintFile {
  file: string;
  role: 'memory' | 'todo' | 'day' | 'index';
  text: string;
}

/** Everything the rules look at, read from disk by the caller. */
export interface LintInput {
  files: readonly LintFile[];
  /** The INDEX.md each tier would get from a rebuild now, and the one on disk. */
  indexes: Record<Tier, { expected: string; actual: string | undefined; dates: readonly string[] }>;
  /** Every file and folder under `memory/`, relative and `/`-separated. */
  paths: ReadonlySet<string>;
  duplicateDays: readonly { date: string; locations: DayLocation[]; identical: boolean }[];
  legacyDates: readonly string[];
  sectionWarn: number;
  configWarnings: readonly string[];
  usageCorrupt: boolean;
}

/** Runs every rule; issues come sorted by file, then line. */
export function lintJournal(input: LintInput): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const f of input.files) {
    if (f.role === 'day' || f.role === 'memory') issues.push(...sectionIssues(f, input.sectionWarn));
    issues.push(...pointerIssues(f, input.paths));
  }
  for (const tier of ['hot', 'cold'] as const) issues.push(...staleIndex(tier, input.indexes[tier]));
  for (const d of input.duplicateDays) {
    issues.push({
      kind: 'duplicate_day',
      severity: d.identical ? 'warning' : 'error',
      file: `${d.date}.md`,
      message: d.identical
        ? `${d.date} is in ${d.locations.join(' and ')} with identical bytes (an interrupted move); the next tend keeps one`
        : `${d.date} is in ${d.locations.join(' and ')} with different content; merge them by hand, tend leaves this day alone`,
      details: { date: d.date, locations: d.locations, identical: d.identical },
    });
  }
  for (const date of input.legacyDates) {
    issues.push({
      kind: 'legacy_day',
      severity: 'info',
      file: `${date}.md`,
      message: `legacy day file; the next tend moves it into archive/hot/`,
    });
  }
  for (const w of input.configWarnings)
    issues.push({ kind: 'bad_config', severity: 'warning', file: '.tide.json', message: w });
  if (input.usageCorrupt) {
    issues.push({
      kind: 'bad_usage',
      severity: 'warning',
      file: '.usage.json',
      message:
        '.usage.json is not valid; lookups restart from zero on the next write (a copy of the bad file is kept)',
    });
  }
  return issues.sort(
    (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.kind.localeCompare(b.kind),
  );
}

function sectionIssues(f: LintFile, sectionWarn: number): LintIssue[] {
  const out: LintIssue[] = [];
  const seenHeading = new Map<string, number>();
  const seenBody = new Map<string, number>();
  for (const s of parseDayFile(f.text).sections) {
    const at = { file: f.file, line: s.line, heading: s.heading };
    const visible = visibleText(s.body);
    if (f.role === 'day' && s.time === undefined) {
      out.push({
        ...at,
        kind: 'untimed_heading',
        severity: 'warning',
        message: `heading has no time; write it as ## 【HH:MM ${s.title || '…'}】`,
      });
    }
    if (f.role === 'day' && visible === '')
      out.push({ ...at, kind: 'empty_section', severity: 'warning', message: 'section has no content' });
    // sectionWarn counts body lines of one section (SEEDS §2.4 leaves the unit open; lines are what costs context).
    if (s.bodyLines > sectionWarn) {
      out.push({
        ...at,
        kind: 'long_section',
        severity: 'warning',
        message: `section has ${s.bodyLines} lines, over sectionWarn ${sectionWarn}`,
        details: { lines: s.bodyLines, sectionWarn },
      });
    }
    const key = s.heading.replace(/\s+/g, ' ').trim().toLowerCase();
    const firstH = seenHeading.get(key);
    const firstB = visible === '' ? undefined : seenBody.get(visible);
    if (firstH !== undefined) {
      out.push({
        ...at,
        kind: 'duplicate_section',
        severity: 'warning',
        message: `same heading as line ${firstH}`,
        details: { by: 'heading', firstLine: firstH },
      });
    } else if (firstB !== undefined) {
      out.push({
        ...at,
        kind: 'duplicate_section',
        severity: 'warning',
        message: `same content as the section at line ${firstB}`,
        details: { by: 'content', firstLine: firstB },
      });
    }
    if (firstH === undefined) seenHeading.set(key, s.line);
    if (visible !== '' && firstB === undefined) seenBody.set(visible, s.line);
  }
  return out;
}

const LINK_RE = /!?\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g;

/** Relative link targets of a markdown text, outside code fences and inline code, with their 1-based lines. */
export function markdownLinks(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence = false;
  splitLines(text).forEach((raw, i) => {
    if (/^\s{0,3}(```|~~~)/.test(raw)) fence = !fence;
    if (fence) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(LINK_RE)) out.push({ target: m[1]!.replace(/^<|>$/g, ''), line: i + 1 });
  });
  return out;
}

/**
 * Where a link from `fromFile` points inside `memory/`, or `outside` for absolute paths and `..` escapes, or
 * `external` for URLs and pure anchors. Links leaving `memory/` are never checked: nothing outside is read.
 */
export function resolvePointer(
  fromFile: string,
  target: string,
): { kind: 'inside'; path: string } | { kind: 'outside' | 'external' } {
  let t = target.split('#')[0]!.split('?')[0]!.replace(/\\/g, '/');
  if (t === '' || (/^[a-z][a-z0-9+.-]*:/i.test(t) && !/^[a-z]:\//i.test(t))) return { kind: 'external' };
  try {
    t = decodeURI(t);
  } catch {
    // keep the raw target: a bad escape is just another name that will not exist
  }
  if (t.startsWith('/') || /^[a-z]:\//i.test(t)) return { kind: 'outside' };
  const p = posix.normalize(posix.join(posix.dirname(fromFile), t)).replace(/\/+$/, '');
  if (p === '..' || p.startsWith('../')) return { kind: 'outside' };
  return { kind: 'inside', path: p === '' ? '.' : p };
}

function pointerIssues(f: LintFile, paths: ReadonlySet<string>): LintIssue[] {
  const out: LintIssue[] = [];
  for (const { target, line } of markdownLinks(f.text)) {
    const r = resolvePointer(f.file, target);
    if (r.kind !== 'inside' || r.path === '.' || paths.has(r.path)) continue;
    const day = /(?:^|\/)(\d{4}-\d{2}-\d{2})\.md$/.exec(r.path)?.[1];
    const movedTo = day
      ? ['archive/hot', 'archive/cold', '']
          .map((d) => (d ? `${d}/${day}.md` : `${day}.md`))
          .find((p) => paths.has(p))
      : undefined;
    out.push({
      kind: 'dead_pointer',
      severity: 'error',
      file: f.file,
      line,
      message: movedTo
        ? `link to ${target}: the file is now at ${movedTo}`
        : `link to ${target}: no such file in memory/`,
      details: { target, resolved: r.path, ...(movedTo ? { movedTo } : {}) },
    });
  }
  return out;
}

function staleIndex(tier: Tier, ix: LintInput['indexes'][Tier]): LintIssue[] {
  const file = `archive/${tier}/INDEX.md`;
  if (ix.actual === undefined) {
    return [
      {
        kind: 'stale_index',
        severity: 'warning',
        file,
        message: `${tier} index is missing; run journal index`,
        details: { missing: [...ix.dates], extra: [] },
      },
    ];
  }
  if (ix.actual === ix.expected) return [];
  const listed = new Set(parseIndexDates(ix.actual));
  const onDisk = new Set(ix.dates);
  const missing = [...onDisk].filter((d) => !listed.has(d)).sort();
  const extra = [...listed].filter((d) => !onDisk.has(d)).sort();
  const what =
    missing.length + extra.length > 0
      ? `${missing.length} day(s) not listed, ${extra.length} listed but absent`
      : 'headings or pins changed';
  return [
    {
      kind: 'stale_index',
      severity: 'warning',
      file,
      message: `${tier} index is stale (${what}); run journal index`,
      details: { missing, extra },
    },
  ];
}
