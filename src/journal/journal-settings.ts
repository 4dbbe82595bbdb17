/** Reading and changing a workspace's `.tide.json` (the settings page and `journal config`), and probing a workspace. */
import type { z } from 'zod';
import { parseInput } from '../core/schemas.js';
import type { AgentsHintKind } from './agents-hint.js';
import { openWorkspace, syncHint, type JournalContext } from './journal-context.js';
import { JournalConfigInput, JournalRootInput } from './journal-inputs.js';
import { DEFAULT_TIDE_CONFIG, renderTideConfig, type TideConfig } from './tide-config.js';

/** The configuration in effect and what was wrong with the file. */
export interface JournalConfigResult {
  root: string;
  config: TideConfig;
  warnings: string[];
  /** True when this call rewrote `.tide.json`. */
  changed: boolean;
  hint?: AgentsHintKind;
}

/**
 * Returns the workspace's configuration; with `patch` merges validated keys into `.tide.json`, with `reset` restores
 * the defaults (of this workspace only). Unknown keys in the file are kept. The AGENTS.md hint follows `agentsHint`.
 */
export async function journalConfig(
  ctx: JournalContext,
  raw: z.input<typeof JournalConfigInput>,
): Promise<JournalConfigResult> {
  const input = parseInput(JournalConfigInput, raw);
  // Reading creates nothing (a GET must not change anything); only a change lays out memory/.
  const ws = await openWorkspace(ctx, input.root, { bootstrap: input.reset || input.patch !== undefined });
  if (!input.reset && input.patch === undefined) {
    return { root: ws.dir.root, config: ws.config, warnings: ws.configWarnings, changed: false };
  }
  return ctx.locks.run(ws.dir.path, async () => {
    const config: TideConfig = {
      ...(input.reset ? DEFAULT_TIDE_CONFIG : ws.config),
      ...(input.patch ?? {}),
    } as TideConfig;
    const text = renderTideConfig(config, ws.extra);
    const changed = (await ws.dir.readText('.tide.json')) !== text;
    if (changed) await ws.dir.writeAtomic('.tide.json', text);
    const hint = (await syncHint(ctx, { ...ws, config })).kind;
    return { root: ws.dir.root, config, warnings: [], changed, hint };
  });
}

/** A workspace as the scheduler and the settings page see it, without creating anything. */
export interface WorkspaceProbe {
  root: string;
  /** `missing_root`: the folder is gone; `no_memory`: never used (auto-tend leaves it alone). */
  state: 'ready' | 'no_memory' | 'missing_root';
  autoTend: boolean;
  lastTended?: string;
}

/** Probes one workspace: never creates `memory/`. */
export async function probeWorkspace(
  ctx: JournalContext,
  raw: z.input<typeof JournalRootInput>,
): Promise<WorkspaceProbe> {
  const { root } = parseInput(JournalRootInput, raw);
  let ws;
  try {
    ws = await openWorkspace(ctx, root, { bootstrap: false });
  } catch (e) {
    if ((e as { code?: string }).code === 'invalid_input')
      return { root, state: 'missing_root', autoTend: false };
    throw e;
  }
  const lastTended = await ctx.host.getTendState(ws.dir.root);
  const exists = await ws.dir.exists();
  return {
    root: ws.dir.root,
    state: exists ? 'ready' : 'no_memory',
    autoTend: exists && ws.config.autoTend,
    ...(lastTended !== undefined ? { lastTended } : {}),
  };
}

/** Every workspace the host knows, probed. */
export async function listJournalWorkspaces(ctx: JournalContext): Promise<{ workspaces: WorkspaceProbe[] }> {
  const roots = await ctx.host.listWorkspaces();
  return { workspaces: await Promise.all(roots.map((root) => probeWorkspace(ctx, { root }))) };
}
