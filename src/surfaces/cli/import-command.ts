/** `tidepool import <paths...>`: session transcripts and Tideline databases into the memory, idempotently. */
import type { Command } from 'commander';
import { importFileInput } from '../../app/import-file-input.js';
import { IMPORT_FORMAT_NAMES } from '../../app/import-format-names.js';
import type { ImportFileResult } from '../../app/import-sessions.js';
import { TidepoolError } from '../../core/errors.js';
import { choiceOption, creating, print, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';
import { IMPORT_SOURCES, importPaths } from './import-paths.js';
import { createProgressBar } from './progress-bar.js';

/** Registers `import`. */
export function registerImportCommand(program: Command, deps: CliDeps): void {
  withCommon(
    program
      .command('import')
      .description(
        'import session transcripts or a Tideline database; importing the same file again adds nothing',
      )
      .argument('[paths...]', 'transcript files (.jsonl, .json, .md), Tideline .db files, or directories (every such file under them, e.g. ~/.claude/projects)')
      .option('--format <format>', `${IMPORT_FORMAT_NAMES.join(' | ')}`, 'auto')
      .option('--from <tool>', `with no paths: import that tool's own transcript folder (${IMPORT_SOURCES.map((s) => `${s}: ${deps.env.importDirs?.[s] ?? '?'}`).join(', ')})`),
  ).action(async (paths: string[], o: CommonOptions & { format: string; from?: string }) => {
    if (o.from !== undefined && !IMPORT_SOURCES.includes(o.from)) {
      throw new TidepoolError('invalid_input', `--from must be one of ${IMPORT_SOURCES.join(', ')}, got "${o.from}"`, { field: 'from' });
    }
    // --from names the format as well, unless --format says otherwise.
    if (o.from !== undefined && o.format === 'auto') o.format = o.from;
    const files = await importPaths(paths, o.from, deps.env.importDirs ?? {});
    const format = choiceOption('format', o.format, IMPORT_FORMAT_NAMES) ?? 'auto';
    const bar = createProgressBar(deps.stderr);
    const results: ImportFileResult[] = [];
    await withMemory(deps, creating(o), async (m) => {
      for (const path of files) {
        let r: ImportFileResult;
        try {
          r = await m.importFile(importFileInput(path, format), {
            onProgress: (p) => bar.update(p.done, p.total, p.file),
          });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === undefined) throw e;
          r = { status: 'failed', file: path, reason: (e as Error).message };
        } finally {
          bar.finish();
        }
        if (r.status === 'failed') deps.stderr.write(`tidepool import: ${r.file}: ${r.reason}\n`);
        else for (const w of r.warnings.slice(0, 5)) deps.stderr.write(`tidepool import: ${r.file}: ${w}\n`);
        results.push(r);
      }
    });
    const ok = results.filter((r) => r.status === 'imported');
    const summary = {
      files: results,
      imported: ok.reduce((s, r) => s + r.imported, 0),
      skipped: ok.reduce((s, r) => s + r.skipped, 0),
      failed: results.length - ok.length,
    };
    print(deps, o, summary, () => ok.map(describe).join('\n') || 'nothing imported');
    if (summary.failed > 0) process.exitCode = 2;
  });
}

function describe(r: Extract<ImportFileResult, { status: 'imported' }>): string {
  const parts = [`${r.file} (${r.format}): ${r.imported} of ${r.turns} turns imported`];
  if (r.skipped > 0) parts.push(`${r.skipped} already present`);
  if (r.ignored > 0) parts.push(`${r.ignored} records ignored`);
  if (r.redacted > 0) parts.push(`${r.redacted} secrets redacted`);
  const t = r.tideline;
  if (t) {
    parts.push(
      `${t.narratives.imported} narratives (${t.narratives.skipped} already present), ${t.profiles} profiles, ` +
        `${t.selfConcept} self-concept fields, ${t.snapshots} snapshots, ${t.threads} threads, ${t.topicClusters} topic clusters`,
    );
  }
  return parts.join(', ');
}
