// Samples the process's resident set and JS heap on an interval and on demand, keeping the peaks.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Runs a full garbage collection, so that a baseline holds no garbage of an earlier run. Without
 * `--expose-gc` the flag is switched on at run time; V8 then exposes `gc` to new contexts.
 */
export function collectGarbage(): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  }
  gc();
}

/** Peaks seen between start and stop, and the values at start (the baseline). */
export interface MemoryPeaks {
  readonly baseline_rss_bytes: number;
  readonly baseline_heap_bytes: number;
  readonly peak_rss_bytes: number;
  readonly peak_heap_bytes: number;
}

/**
 * Timers cannot fire while synchronous indexing blocks the event loop, so callers also call
 * `sample()` between batches; the interval catches the asynchronous stretches.
 */
export class MemorySampler {
  #timer: NodeJS.Timeout | undefined;
  #baseRss = 0;
  #baseHeap = 0;
  #peakRss = 0;
  #peakHeap = 0;

  /** Records the baseline and starts sampling every `intervalMs`. */
  start(intervalMs = 25): void {
    const m = process.memoryUsage();
    this.#baseRss = this.#peakRss = m.rss;
    this.#baseHeap = this.#peakHeap = m.heapUsed;
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref();
  }

  /** Takes one sample now. */
  sample(): void {
    const m = process.memoryUsage();
    if (m.rss > this.#peakRss) this.#peakRss = m.rss;
    if (m.heapUsed > this.#peakHeap) this.#peakHeap = m.heapUsed;
  }

  /** Takes a last sample, stops the timer and returns the peaks. */
  stop(): MemoryPeaks {
    this.sample();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    return {
      baseline_rss_bytes: this.#baseRss,
      baseline_heap_bytes: this.#baseHeap,
      peak_rss_bytes: this.#peakRss,
      peak_heap_bytes: this.#peakHeap,
    };
  }
}
