/**
 * Runtime integrations: `hooks install|uninstall claude-code`, the hidden `hook <event>` those hooks run,
 * `mcp-config <client>` and `agents-hint`.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { syncTidepoolHint } from '../../app/injection/tidepool-hint.js';
import type { Tidepool } from '../../app/tidepool.js';
import { TidepoolError } from '../../core/errors.js';
import { creating, print, readStdin, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';
import { CLAUDE_HOOK_EVENTS, shellWord, TIDEPOOL_SKILL, withoutTidepoolHooks, withTidepoolHooks } from './claude-code-hooks.js';
import { soulReader } from './inject-commands.js';
import { mcpConfigSnippet } from './mcp-config-snippets.js';

/** `node <this package's bin/tidepool.js>`: works without a global install or npx. */
function defaultLauncher(): string[] {
  return [process.execPath, fileURLToPath(new URL('../../../bin/tidepool.js', import.meta.url))];
}

/** The launcher words: `--launcher "npx -y -p tidepool-memory tidepool"` or the default. */
function launcherWords(launcher: string | undefined): string[] {
  return launcher ? launcher.trim().split(/\s+/) : defaultLauncher();
}

/** `--db` (made absolute: hooks run in other directories) and `--space`, to pass on. */
function memoryFlags(o: CommonOptions, cwd: string): string[] {
  return [...(o.db ? ['--db', /^postgres(ql)?:\/\//i.test(o.db) ? o.db : resolve(cwd, o.db)] : []), ...(o.space ? ['--space', o.space] : [])];
}

async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const old = existsSync(path) ? await readFile(path, 'utf8') : undefined;
  if (old === text) return false;
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tidepool-${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
  return true;
}

async function readSettings(path: string): Promise<Record<string, unknown>> {
  if (!existsSync(path)) return {};
  const raw = await readFile(path, 'utf8');
  if (!raw.trim()) return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through: a settings file we cannot read is never overwritten
  }
  throw new TidepoolError('invalid_input', `${path} is not a JSON object; fix it first (nothing was changed)`, { field: 'settings' });
}

function claudeDir(project: string | undefined, cwd: string): string {
  return project ? join(resolve(cwd, project), '.claude') : join(homedir(), '.claude');
}

/** Registers the integration commands. */
export function registerIntegrationCommands(program: Command, deps: CliDeps): void {
  const hooks = program.command('hooks').description('install or remove runtime hooks (claude-code)');
  withCommon(
    hooks
      .command('install')
      .description('write Claude Code hooks (SessionStart, UserPromptSubmit, Stop, PreCompact) and the tidepool skill')
      .argument('<runtime>', 'claude-code')
      .option('--project <dir>', "the project's .claude/ (default: the user's ~/.claude/)")
      .option('--launcher <cmd>', 'how hooks start tidepool (default: this node and this package\'s bin/tidepool.js)'),
  ).action(async (runtime: string, o: CommonOptions & { project?: string; launcher?: string }) => {
    if (runtime !== 'claude-code') throw new TidepoolError('invalid_input', `runtime: unknown runtime "${runtime}"; known: claude-code`, { field: 'runtime' });
    const dir = claudeDir(o.project, deps.env.cwd);
    const settingsPath = join(dir, 'settings.json');
    const launcher = launcherWords(o.launcher).map(shellWord).join(' ');
    const next = withTidepoolHooks(await readSettings(settingsPath), launcher, memoryFlags(o, deps.env.cwd).map(shellWord));
    const settingsChanged = await writeIfChanged(settingsPath, `${JSON.stringify(next, null, 2)}\n`);
    const skillPath = join(dir, 'skills', 'tidepool', 'SKILL.md');
    const skillChanged = await writeIfChanged(skillPath, TIDEPOOL_SKILL);
    const out = { runtime, settings: settingsPath, skill: skillPath, events: Object.keys(CLAUDE_HOOK_EVENTS), changed: settingsChanged || skillChanged };
    print(deps, o, out, () => `${out.changed ? 'installed' : 'already installed'}: hooks in ${settingsPath}, skill in ${skillPath}`);
  });
  withCommon(
    hooks
      .command('uninstall')
      .description('remove the Claude Code hooks tidepool installed (other settings stay)')
      .argument('<runtime>', 'claude-code')
      .option('--project <dir>', "the project's .claude/ (default: the user's ~/.claude/)"),
  ).action(async (runtime: string, o: CommonOptions & { project?: string }) => {
    if (runtime !== 'claude-code') throw new TidepoolError('invalid_input', `runtime: unknown runtime "${runtime}"; known: claude-code`, { field: 'runtime' });
    const settingsPath = join(claudeDir(o.project, deps.env.cwd), 'settings.json');
    const changed = existsSync(settingsPath) && (await writeIfChanged(settingsPath, `${JSON.stringify(withoutTidepoolHooks(await readSettings(settingsPath)), null, 2)}\n`));
    print(deps, o, { runtime, settings: settingsPath, changed }, () => (changed ? `removed tidepool hooks from ${settingsPath}` : 'no tidepool hooks to remove'));
  });

  withCommon(
    program
      .command('hook', { hidden: true })
      .description('run one Claude Code hook: reads the hook JSON on stdin (installed by `hooks install`)')
      .argument('<event>', Object.values(CLAUDE_HOOK_EVENTS).join(' | ')),
  ).action(async (event: string, o: CommonOptions) => {
    // A hook must never break the agent's turn (exit 2 would even block it): report on stderr, exit 0.
    try {
      const raw = deps.stdin.isTTY ? '' : await readStdin(deps);
      const input = (raw.trim() ? JSON.parse(raw) : {}) as Record<string, unknown>;
      await withMemory(deps, creating(o), (m) => runHook(m, event, input, deps));
    } catch (e) {
      deps.stderr.write(`tidepool hook ${event}: ${(e as Error)?.message ?? String(e)}\n`);
    }
  });

  withCommon(
    program
      .command('mcp-config')
      .description('print the MCP config snippet for a client: claude-code, claude-desktop, cursor, vscode, codex')
      .argument('<client>', 'claude-code | claude-desktop | cursor | vscode | codex')
      .option('--toolsets <list>', 'toolsets the server enables (default core)')
      .option('--launcher <cmd>', 'how the client starts tidepool (default: this node and this package\'s bin/tidepool.js)'),
  ).action((client: string, o: CommonOptions & { toolsets?: string; launcher?: string }) => {
    const [command, ...rest] = launcherWords(o.launcher);
    const args = [...rest, 'serve', '--stdio', ...(o.toolsets ? ['--toolsets', o.toolsets] : []), ...memoryFlags(o, deps.env.cwd)];
    const snippet = mcpConfigSnippet(client, command!, args);
    if (o.json) print(deps, o, snippet, () => '');
    else {
      deps.stderr.write(`# ${snippet.file}\n`);
      deps.stdout.write(snippet.text.endsWith('\n') ? snippet.text : `${snippet.text}\n`);
    }
  });

  program
    .command('agents-hint')
    .description('add or update (only when changed) the Tidepool block in AGENTS.md; --remove takes it out cleanly')
    .option('--root <dir>', 'the workspace holding AGENTS.md (default: the current directory)')
    .option('--remove', 'remove the block (and a file that held only the block)')
    .option('--json', 'print one JSON document on stdout')
    .action(async (o: { root?: string; remove?: boolean; json?: boolean }) => {
      const root = resolve(deps.env.cwd, o.root ?? '.');
      const journal = existsSync(join(root, 'memory')) && statSync(join(root, 'memory')).isDirectory();
      const r = await syncTidepoolHint(root, { enabled: !o.remove, journal });
      print(deps, o, r, () => `${r.kind}: ${r.path}`);
    });
}

async function runHook(m: Tidepool, event: string, input: Record<string, unknown>, deps: CliDeps): Promise<void> {
  const session = typeof input.session_id === 'string' && input.session_id ? input.session_id : undefined;
  const transcript = typeof input.transcript_path === 'string' ? input.transcript_path : undefined;
  const cwd = typeof input.cwd === 'string' ? input.cwd : deps.env.cwd;
  const syncTranscript = async () => {
    if (!transcript || !existsSync(transcript)) return;
    const r = await m.recordClaudeCodeTranscript({ text: await readFile(transcript, 'utf8'), fileId: basename(transcript, '.jsonl') });
    for (const w of r.warnings.slice(0, 3)) deps.stderr.write(`tidepool hook ${event}: transcript ${w}\n`);
  };
  switch (event) {
    case 'session-start': {
      // After a resume or compaction the transcript holds turns the bridge should show.
      await syncTranscript();
      const block = await m.buildContext({ session, soul: await soulReader(m, cwd)() });
      if (block.text) deps.stdout.write(block.text);
      return;
    }
    case 'user-prompt-submit': {
      const prompt = typeof input.prompt === 'string' ? input.prompt : '';
      const r = await m.prefetch({ text: prompt, session });
      if (r.text) deps.stdout.write(`${r.text}\n`);
      return;
    }
    case 'stop':
      return syncTranscript();
    case 'pre-compact':
      await syncTranscript();
      await m.addPendingEvent('compaction', { trigger: typeof input.trigger === 'string' ? input.trigger : 'auto' }, session ?? null);
      return;
    default:
      throw new TidepoolError('invalid_input', `event: unknown hook event "${event}"; known: ${Object.values(CLAUDE_HOOK_EVENTS).join(', ')}`, { field: 'event' });
  }
}
