/** Test helper: a child process whose complete stdout lines can be awaited, and that can be SIGKILLed at any moment. */
import { spawnKillable, type KillableChild } from '../../src/bench/crash/killable-process.js';

export { pause, type ChildEnd, type KillableChild } from '../../src/bench/crash/killable-process.js';

/** Spawns `node ...args` with piped stdout and stderr. */
export function spawnChild(args: readonly string[], env: Record<string, string> = {}): KillableChild {
  return spawnKillable(args, { env });
}
