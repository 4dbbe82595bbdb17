/** Warnings: a failure that did not stop the work is written to the log and kept per space for `doctor`. */
import type { WarningKind } from '../core/warning.js';
import type { Store } from '../store/port.js';

/** One kind of warning as `doctor` shows it: how often, when first and last, and the latest messages. */
export interface WarningRecord {
  kind: WarningKind;
  count: number;
  firstAt: number;
  lastAt: number;
  /** The most recent messages, newest last (at most `RECENT_PER_KIND`). */
  recent: string[];
}

/** What a warning needs: where to log it and where to keep it. */
export interface WarningSink {
  readonly store: Store;
  readonly space: string;
  readonly clock: { now(): number };
  readonly warn: (message: string) => void;
}

/** The `job_state` key the record lives under (one JSON value per space). */
const STATE_KEY = 'warnings';
// Bounded so a failure repeated on every call never grows the record: counts and times keep the rest.
const RECENT_PER_KIND = 5;
const MESSAGE_CHARS = 300;

/** Per store: the writes not yet done, so `flushWarnings` can wait for them before a read or a close. */
const pending = new WeakMap<Store, Promise<void>>();

/**
 * Logs `message` at once and adds it to the space's record (written after the caller's work, never inside its
 * transaction). Never throws: a record that cannot be written (a read-only file) is said in the log instead.
 */
export function noteWarning(sink: WarningSink, kind: WarningKind, message: string): void {
  sink.warn(message);
  const at = sink.clock.now();
  const { store, space } = sink;
  const before = pending.get(store) ?? Promise.resolve();
  const next = before.then(async () => {
    try {
      const all = parseRecords(await store.forSpace(space).state.get(STATE_KEY));
      const text = message.slice(0, MESSAGE_CHARS);
      const r = all.find((w) => w.kind === kind);
      if (r) {
        r.count++;
        r.lastAt = Math.max(r.lastAt, at);
        r.recent = [...r.recent, text].slice(-RECENT_PER_KIND);
      } else {
        all.push({ kind, count: 1, firstAt: at, lastAt: at, recent: [text] });
      }
      await store.forSpace(space).state.put(STATE_KEY, all, at);
    } catch (e) {
      sink.warn(`the warning could not be kept for doctor: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  pending.set(store, next);
}

/** Resolves once every warning noted so far on `store` is written. */
export async function flushWarnings(store: Store): Promise<void> {
  await pending.get(store);
}

/** The space's warnings, the most recent kind first. */
export async function readWarnings(store: Store, space: string): Promise<WarningRecord[]> {
  await flushWarnings(store);
  return parseRecords(await store.forSpace(space).state.get(STATE_KEY)).sort((a, b) => b.lastAt - a.lastAt);
}

/** The stored record, keeping only well-formed entries (it is our own JSON, but a file can be edited by hand). */
function parseRecords(v: unknown): WarningRecord[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (w): w is WarningRecord =>
      typeof w === 'object' && w !== null && typeof (w as WarningRecord).kind === 'string' &&
      typeof (w as WarningRecord).count === 'number' && Array.isArray((w as WarningRecord).recent),
  );
}

/** A caught error as one line for a warning. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
