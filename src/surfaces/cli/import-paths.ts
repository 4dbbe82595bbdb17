/** Expands what `tidepool import` was given (files, directories, a known tool's folder) into the files to import. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TidepoolError } from '../../core/errors.js';

/** File endings a directory walk picks up: the transcript formats and Tideline databases `import` reads. */
export const TRANSCRIPT_EXTENSIONS: readonly string[] = ['.jsonl', '.json', '.md', '.db'];

/** The tools whose transcripts live in a known folder, for `import --from <tool>` without paths. */
export const IMPORT_SOURCES: readonly string[] = ['claude-code', 'codex', 'hermes'];

/**
 * Every file under `dir` (recursively, in name order) whose name ends in one of `TRANSCRIPT_EXTENSIONS`. Symbolic
 * links to directories are not followed (a link back up would loop) and dot-folders are skipped.
 */
export async function transcriptsUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith('.')) out.push(...(await transcriptsUnder(path)));
    } else if ((e.isFile() || e.isSymbolicLink()) && TRANSCRIPT_EXTENSIONS.some((x) => e.name.toLowerCase().endsWith(x))) {
      out.push(path);
    }
  }
  return out;
}

/**
 * The files to import: each given file as is, each directory expanded; with no paths, the folder of `from` (one of
 * `IMPORT_SOURCES`, located by boot in `dirs`). A path that does not exist stays in the list: its import fails on its
 * own and the others still run.
 */
export async function importPaths(paths: readonly string[], from: string | undefined, dirs: Readonly<Record<string, string>>): Promise<string[]> {
  let given = [...paths];
  if (given.length === 0) {
    if (from === undefined) {
      throw new TidepoolError('invalid_input', `give transcript files or a directory, or --from ${IMPORT_SOURCES.join('|')} to read that tool's own folder`, { field: 'files' });
    }
    const dir = dirs[from];
    if (dir === undefined) throw new TidepoolError('invalid_input', `--from must be one of ${IMPORT_SOURCES.join(', ')}, got "${from}"`, { field: 'from' });
    if (!(await stat(dir).catch(() => undefined))?.isDirectory()) throw new TidepoolError('not_found', `no ${from} transcripts folder at ${dir}`, { field: 'from' });
    given = [dir];
  }
  const files: string[] = [];
  for (const p of given) {
    const s = await stat(p).catch(() => undefined);
    if (!s?.isDirectory()) {
      files.push(p);
      continue;
    }
    const found = await transcriptsUnder(p);
    if (found.length === 0) throw new TidepoolError('not_found', `no transcripts (${TRANSCRIPT_EXTENSIONS.join(', ')}) under ${p}`, { field: 'files' });
    files.push(...found);
  }
  return files;
}
