/** The contract of one night step: prepare (read, ask) → proposals for a dry run, and an apply for the unit's transaction. */

import type { Layer } from '../../core/types.js';
import type { Store } from '../../store/port.js';
import type { NightContext } from '../night-context.js';
import type { NightDelta } from '../night-log.js';
import type { NightStep } from '../night-types.js';

/** One planned unit of a night, as stored in `sleep_work`. */
export interface PlannedUnit {
  step: NightStep;
  unit: string;
  payload: UnitPayload;
}

/** What a unit was planned with; only the episode-partitioned steps carry ids. */
export interface UnitPayload {
  /** Episode ids of a solidify chunk batch (per chunk), a librarian group or the `consume` unit. */
  chunks?: number[][];
  /** Episodes outside any chunk that a solidify batch proposes knowledge for (no narrative). */
  loose?: number[];
  episodeIds?: number[];
  /** Planned to wait for the next night (it did not fit the budget). */
  deferred?: boolean;
  /** Why the day's turns wait for a later night without being asked about (a small day, `planNight`). */
  waits?: string;
}

/** An item written by a unit that should get a vector once the unit has committed. */
export interface EmbedItem {
  layer: Layer;
  id: number;
  text: string;
}

/** What applying a unit changed. */
export interface Applied {
  delta: NightDelta;
  embed?: EmbedItem[];
}

/** What a phase prepared for one unit. */
export interface PhaseOutcome {
  /** What the unit would change, reported by `--dry-run`. */
  proposals?: unknown;
  /** Log entries that need no write (skips, deferrals, rejected proposals). */
  delta?: NightDelta;
  /** The unit's writes; runs inside one transaction together with marking the unit done. */
  apply?: (tx: Store) => Promise<Applied>;
}

/** One step's implementation. */
export type Phase = (night: NightContext, unit: PlannedUnit) => Promise<PhaseOutcome>;
