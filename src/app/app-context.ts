/** What every use case receives: the store, the configuration, the clock, the embedder and the space. */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Embedder } from '../core/embedder.js';
import type { Store } from '../store/port.js';

/** Dependencies of the use cases, assembled by boot/. */
export interface AppContext {
  readonly store: Store;
  readonly config: Config;
  readonly clock: Clock;
  readonly embedder: Embedder | undefined;
  /** The space every call works in. */
  readonly space: string;
  /** Diagnostics sink (stderr in the CLI); never receives memory content. */
  readonly warn: (message: string) => void;
}
