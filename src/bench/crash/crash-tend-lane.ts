/**
 * The crash bench's journal lane: `tidepool journal tend` on a workspace with work for every tide rule, killed at a
 * random moment; a killed workspace is tended again next round (the repair pass), a finished one is replaced.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorkspace, dayPlaces, type Days } from './crash-workload.js';
import { laneLoop, type LaneResult, type LaneRound } from './crash-lanes.js';

/** A workspace the lane tends, and whether its last tend finished. */
export interface TendWorkspace {
  root: string;
  days: Days;
  finished: boolean;
}

/** The lane's state across rounds: the workspace in hand and every workspace it touched this round. */
export class TendLane {
  #current: TendWorkspace | undefined;
  #made = 0;
  touched: TendWorkspace[] = [];

  constructor(private readonly dir: string) {}

  #workspace(): TendWorkspace {
    if (!this.#current || this.#current.finished) {
      const root = join(this.dir, `ws${this.#made++}`);
      mkdirSync(root, { recursive: true });
      const days = buildWorkspace(root, Date.now());
      this.#current = { root: realpathSync(root), days, finished: false };
    }
    return this.#current;
  }

  /** Tends until the round's end (see {@link laneLoop}): a killed workspace is tended again, a finished one replaced. */
  run(r: LaneRound): Promise<LaneResult> {
    this.touched = [];
    return laneLoop(r, () => {
      const ws = this.#workspace();
      if (!this.touched.includes(ws)) this.touched.push(ws);
      return { args: ['journal', 'tend', '--root', ws.root], onOk: () => (ws.finished = true) };
    });
  }
}

/**
 * Problems with the touched workspaces: a day lost or altered anywhere, or, after a finished tend, a day in more
 * than one place. `archived` reads the archive database's live copies of a day.
 */
export function checkWorkspaces(touched: readonly TendWorkspace[], archived: (root: string, day: string) => string[]): string[] {
  const problems: string[] = [];
  for (const ws of touched) {
    const { counts, altered } = dayPlaces(ws.root, ws.days, (day) => archived(ws.root, day));
    problems.push(...altered.map((a) => `${ws.root}: ${a} differs from what was written`));
    for (const [day, n] of counts) {
      if (n === 0) problems.push(`${ws.root}: day ${day} is nowhere`);
      else if (ws.finished && n !== 1) problems.push(`${ws.root}: day ${day} in ${n} places after a finished tend`);
    }
  }
  return problems;
}
