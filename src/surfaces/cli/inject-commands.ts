/** `tidepool context` and `tidepool prefetch`: print the session-start block and the per-turn recall block. */
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { Tidepool } from '../../app/tidepool.js';
import { TidepoolError } from '../../core/errors.js';
import { intOption, print, readStdin, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

/**
 * Reads SOUL.md each time it is asked (edits show up in the next block): the configured `soulPath` (relative to
 * the workspace), else `<workspace>/SOUL.md`. A missing file is simply no soul.
 */
export function soulReader(memory: Tidepool, workspace: string, explicit?: string): () => Promise<string | undefined> {
  const configured = explicit ?? memory.config.soulPath;
  if (!configured) return () => workspaceSoul(memory, workspace);
  const path = isAbsolute(configured) ? configured : resolve(workspace, configured);
  return async () => {
    try {
      return await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) return undefined;
      throw new TidepoolError('io_failed', `cannot read SOUL file ${path}: ${(e as Error).message}`, { field: 'soul' });
    }
  };
}

/**
 * `<workspace>/SOUL.md`, which the workspace (perhaps a cloned repository) supplies, unlike a configured path: a link
 * out of the workspace (to ~/.ssh/id_rsa, say) would put that file in the agent's context, and a FIFO would hang
 * every context block, so only a regular file inside the workspace is read; anything else is skipped with a warning.
 */
async function workspaceSoul(memory: Tidepool, workspace: string): Promise<string | undefined> {
  const path = join(workspace, 'SOUL.md');
  let real: string;
  let home: string;
  try {
    [real, home] = await Promise.all([realpath(path), realpath(workspace)]);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TidepoolError('io_failed', `cannot read SOUL file ${path}: ${(e as Error).message}`, { field: 'soul' });
  }
  const rel = relative(home, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    memory.warn(`${path} links outside the workspace; it is not read`);
    return undefined;
  }
  if (!(await stat(real)).isFile()) {
    memory.warn(`${path} is not a regular file; it is not read`);
    return undefined;
  }
  return readFile(real, 'utf8');
}

/** Registers `context` and `prefetch`. */
export function registerInjectCommands(program: Command, deps: CliDeps): void {
  withCommon(
    program
      .command('context')
      .description('print the session-start memory block (identity, goal, what the memory knows, open problems, needs review, weighty memories, last conversation, memory map)')
      .option('--session <id>', 'the session it is injected into (prefetch then skips what it showed)')
      .option('--max-tokens <n>', 'token budget (default 4000, or injection.maxTokens)')
      .option('--soul <file>', 'SOUL.md to put first (default: soulPath from config, else ./SOUL.md if present)')
      .option('--workspace <dir>', 'where SOUL.md is looked for (default: the current directory)'),
  ).action(async (o: CommonOptions & { session?: string; maxTokens?: string; soul?: string; workspace?: string }) => {
    await withMemory(deps, o, async (m) => {
      const soul = await soulReader(m, o.workspace ?? deps.env.cwd, o.soul)();
      const block = await m.buildContext({ session: o.session, maxTokens: intOption('max-tokens', o.maxTokens), soul });
      print(deps, o, block, () => block.text.trimEnd() || 'memory is empty: nothing to inject yet');
    });
  });

  withCommon(
    program
      .command('prefetch')
      .description('print memories related to a new message (T1 recall over every layer, whole turns with speaker and date; T4 keyword fallback); stdin when no text')
      .argument('[text]', 'the user message; omit to read it from stdin')
      .option('--session <id>', 'session: memories already shown in it are not repeated')
      .option('--max-tokens <n>', 'token budget of the block (default 1200, or injection.prefetchMaxTokens)'),
  ).action(async (text: string | undefined, o: CommonOptions & { session?: string; maxTokens?: string }) => {
    const message = text ?? (deps.stdin.isTTY ? undefined : await readStdin(deps));
    if (message === undefined) throw new TidepoolError('invalid_input', 'give the message text, or pipe it on stdin', { field: 'text' });
    await withMemory(deps, o, async (m) => {
      const r = await m.prefetch({ text: message, session: o.session, maxTokens: intOption('max-tokens', o.maxTokens) });
      print(deps, o, r, () => r.text || (r.skipped === 'short' ? 'message too short to search (under 5 characters)' : 'nothing related found'));
    });
  });
}
