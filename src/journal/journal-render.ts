/** Plain-text forms of the journal results for people (the CLI without `--json`). */
import type { JournalAddResult } from './add-section.js';
import type { TickReport } from './auto-tend-scheduler.js';
import type { JournalConfigResult, WorkspaceProbe } from './journal-settings.js';
import type { JournalStats } from './journal-stats.js';
import type { JournalLintReport } from './lint-workspace.js';
import type { JournalReadResult } from './read-day.js';
import type { JournalIndexResult } from './rebuild-indexes.js';
import type { JournalRestoreResult } from './restore-day.js';
import type { JournalSearchResult } from './search-journal.js';
import type { TendReport } from './tend-workspace.js';

/** Search results with line-numbered context. */
export function renderSearchResult(r: JournalSearchResult): string {
  if (r.results.length === 0)
    return `No match (scope ${r.scope}${r.scope === 'hot' ? '; try scope all for the cold tier' : ''}).\n`;
  const out = [`${r.results.length} of ${r.total} matching file(s), scope ${r.scope}`];
  for (const hit of r.results) {
    out.push('', `${hit.file} (${hit.tier}, ${hit.hits} matching line${hit.hits === 1 ? '' : 's'})`);
    for (const s of hit.snippets) {
      if (s.heading !== undefined) out.push(`  ## ${s.heading}`);
      const width = String(s.startLine + s.lines.length - 1).length;
      s.lines.forEach((line, i) => {
        const n = s.startLine + i;
        out.push(`  ${String(n).padStart(width)}${s.matchLines.includes(n) ? '>' : '|'} ${line}`);
      });
    }
    if (hit.moreSnippets > 0) out.push(`  … ${hit.moreSnippets} more place(s)`);
  }
  return `${out.join('\n')}\n`;
}

/** A day's content, or a note that it has none. */
export function renderReadResult(r: JournalReadResult): string {
  if (r.kind === 'missing') return `No day file for ${r.date}.\n`;
  return r.content.endsWith('\n') ? r.content : `${r.content}\n`;
}

/** One line about the added section. */
export function renderAddResult(r: JournalAddResult): string {
  if (r.kind === 'duplicate') return `Already there: ${r.file}:${r.line} ## ${r.heading}\n`;
  return `Added to ${r.file}:${r.line}${r.createdFile ? ' (new day file)' : ''}: ## ${r.heading}\n`;
}

/** What the index rebuild wrote. */
export function renderIndexResult(r: JournalIndexResult): string {
  return `Hot index ${r.hot}, cold index ${r.cold}; ${r.days.hot} hot and ${r.days.cold} cold day(s), ${r.sections} section(s) indexed.\n`;
}

/** Lint issues as `file:line severity kind message`. */
export function renderLintReport(r: JournalLintReport): string {
  if (r.issues.length === 0) return 'No problems found.\n';
  const lines = r.issues.map(
    (i) => `${i.file}${i.line !== undefined ? `:${i.line}` : ''} ${i.severity} ${i.kind}: ${i.message}`,
  );
  const summary = Object.entries(r.counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return `${lines.join('\n')}\n\n${r.issues.length} issue(s): ${summary}\n`;
}

/** The tend report, grouped by what happened. */
export function renderTendReport(r: TendReport): string {
  const out = [`${r.dryRun ? 'Dry run (nothing changed)' : 'Tended'} ${r.root} for ${r.today}`];
  if (r.created.length > 0) out.push(`Created: ${r.created.join(', ')}`);
  if (r.migrated.length > 0) out.push(`Migrated legacy days: ${r.migrated.join(', ')}`);
  for (const m of r.moves)
    out.push(
      `  ${m.date} ${m.from} → ${m.to} (${m.reason}${m.outcome && m.outcome !== 'moved' ? `, ${m.outcome}` : ''})`,
    );
  for (const p of r.pinned) out.push(`  ${p.date} pinned (${p.reason}, ${p.hits} lookup days)`);
  for (const u of r.unpinned) out.push(`  ${u.date} unpinned (${u.idleDays} days without lookups)`);
  for (const a of r.archived) out.push(`  ${a.date} left ${a.from} for the archive database`);
  for (const x of r.repaired)
    out.push(
      `  ${x.date} duplicate from an interrupted move: kept ${x.kept}, removed ${x.removed.join(', ')}`,
    );
  for (const c of r.conflicts)
    out.push(`  ${c.date} has different copies in ${c.locations.join(' and ')}: left alone`);
  if (r.moves.length + r.pinned.length + r.unpinned.length + r.archived.length === 0)
    out.push('  Nothing to move.');
  out.push(
    `Now: ${r.tiers.hot} hot, ${r.tiers.cold} cold${r.tiers.legacy > 0 ? `, ${r.tiers.legacy} legacy` : ''}.`,
  );
  for (const w of r.warnings) out.push(`Warning: ${w}`);
  return `${out.join('\n')}\n`;
}

/** Stats as a table of files. */
export function renderStats(s: JournalStats): string {
  const out = [
    `${s.root} on ${s.today}: ${s.tiers.hot} hot, ${s.tiers.cold} cold${s.tiers.legacy > 0 ? `, ${s.tiers.legacy} legacy` : ''}, ${s.archived} archived, ${s.pins} pinned; last tend ${s.lastTended ?? 'never'}`,
    '',
    'file                          place   hits  total  last hit    pinned',
  ];
  for (const f of s.files) {
    out.push(
      `${f.file.padEnd(29)} ${f.location.padEnd(7)} ${String(f.hits).padStart(4)}  ${String(f.totalHits).padStart(5)}  ${(f.lastHit ?? '-').padEnd(10)}  ${f.pinned ?? ''}`.trimEnd(),
    );
  }
  return `${out.join('\n')}\n`;
}

/** One line about a restore. */
export function renderRestoreResult(r: JournalRestoreResult): string {
  if (r.kind === 'restored') return `Restored ${r.date} into ${r.file} (${r.bytes} bytes), pinned.\n`;
  if (r.kind === 'exists') return `${r.date} is already in the folder: ${r.file}.\n`;
  return `${r.date} is not in the archive database.\n`;
}

/** The configuration as `key: value` lines. */
export function renderConfigResult(r: JournalConfigResult): string {
  const lines = Object.entries(r.config).map(([k, v]) => `${k}: ${String(v)}`);
  for (const w of r.warnings) lines.push(`Warning: ${w}`);
  if (r.changed) lines.push('Saved .tide.json.');
  return `${lines.join('\n')}\n`;
}

/** Known workspaces, one per line. */
export function renderWorkspaces(r: { workspaces: WorkspaceProbe[] }): string {
  if (r.workspaces.length === 0) return 'No workspace has used the journal yet.\n';
  return `${r.workspaces.map((w) => `${w.root}  ${w.state}${w.state === 'ready' ? `  autoTend ${w.autoTend ? 'on' : 'off'}  last tend ${w.lastTended ?? 'never'}` : ''}`).join('\n')}\n`;
}

/** One auto-tend tick. */
export function renderTickReport(r: TickReport): string {
  const out = [
    `Auto-tend ${r.day}: ${r.tended.length} tended, ${r.skipped.length} skipped, ${r.failed.length} failed`,
  ];
  for (const t of r.tended)
    out.push(`  tended ${t.root}: ${t.moves} move(s), ${t.archived} archived, ${t.migrated} migrated`);
  for (const s of r.skipped) out.push(`  skipped ${s.root}: ${s.reason}`);
  for (const f of r.failed) out.push(`  failed ${f.root}: ${f.code} ${f.message}`);
  return `${out.join('\n')}\n`;
}
