/**
 * One writer per workspace at a time: a queue inside this process plus `memory/.tide.lock` across processes,
 * so the server's auto-tend and a CLI `journal add` never interleave their read-modify-write steps.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { TidepoolError } from '../core/errors.js';
import { createWhole } from './memory-dir.js';

async function exists(dir: string): Promise<boolean> {
  return fs.stat(dir).then(() => true, () => false);
}

/** Lock file name inside `memory/`. */
export const LOCK_FILE = '.tide.lock';
// A lock not refreshed for a minute is taken over: its holder refreshes it every quarter of that while it works, so
// only a dead or hung holder's lock gets that old (a dead holder's is taken over at once when its pid can be checked).
const STALE_MS = 60_000;
const WAIT_MS = 15_000;
const RETRY_MS = 25;
/** Held while a dead holder's lock is removed (`#breakStale`), beside the lock. */
const BREAK_SUFFIX = '.break';
// A waiter holds the guard for a few file operations: one older than this was left by a process that hung there.
const BREAK_STALE_MS = 5_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Options of a lock queue (tests shorten its times). */
export interface WorkspaceLockOptions {
  /** Age past which a lock is taken over, live holder or not (default 60 s); a holder refreshes it 4 times as often. */
  staleMs?: number;
}

/** Serialises work per `memory/` folder. */
export class WorkspaceLocks {
  #tails = new Map<string, Promise<unknown>>();
  readonly #staleMs: number;

  constructor(o: WorkspaceLockOptions = {}) {
    this.#staleMs = o.staleMs ?? STALE_MS;
  }

  /** Runs `fn` while holding the lock of the memory folder `memoryPath` (which must exist). */
  async run<T>(memoryPath: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#tails.get(memoryPath) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.#withFile(memoryPath, fn));
    this.#tails.set(memoryPath, next);
    try {
      return await next;
    } finally {
      if (this.#tails.get(memoryPath) === next) this.#tails.delete(memoryPath);
    }
  }

  async #withFile<T>(memoryPath: string, fn: () => Promise<T>): Promise<T> {
    const file = path.join(memoryPath, LOCK_FILE);
    const deadline = Date.now() + WAIT_MS;
    const id = randomBytes(8).toString('hex');
    for (;;) {
      if (await this.#take(file, id)) break;
      if (await this.#stale(file, this.#staleMs)) {
        await this.#breakStale(file);
        continue;
      }
      if (Date.now() > deadline)
        throw new TidepoolError(
          'locked',
          `${memoryPath} is busy (another Tidepool process holds ${LOCK_FILE})`,
        );
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
    // Refreshed while held: a long operation (a large index or restore) kept its lock a minute and then lost it to a
    // waiter, and its release removed the new holder's lock.
    const beat = setInterval(() => {
      const now = new Date();
      fs.utimes(file, now, now).catch(() => undefined);
    }, this.#staleMs / 4);
    beat.unref();
    try {
      return await fn();
    } finally {
      clearInterval(beat);
      await this.#release(file, id);
    }
  }

  /** Removes the lock if it is still the one `#take` wrote under `id`: one taken over since is its new holder's. */
  async #release(file: string, id: string): Promise<void> {
    const held = await fs.readFile(file, 'utf8').then(
      (text) => (JSON.parse(text) as { id?: unknown }).id,
      () => undefined,
    );
    if (held === id) await fs.rm(file, { force: true });
  }

  /**
   * Creates the lock file with its holder already in it (`createWhole`): created first and written after, a lock
   * whose writer was killed in between stayed empty, nobody could tell that its holder was dead, and every writer
   * waited out its minute of age (`STALE_MS`). False when another holds the lock (or when a tend in another process
   * swept the temp file first: the next try writes another).
   */
  async #take(file: string, id: string): Promise<boolean> {
    try {
      return await createWhole(file, JSON.stringify({ pid: process.pid, at: Date.now(), id }));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && (await exists(path.dirname(file)))) return false;
      throw new TidepoolError('io_failed', `lock ${file}: ${(e as Error).message}`, { cause: e });
    }
  }

  /**
   * Removes a dead holder's lock once, however many waiters found it dead: under a guard taken as the lock is, the
   * lock is judged again before it is removed. Without the guard each waiter removed it, and one that had judged the
   * dead holder's lock before another took it over removed the new holder's lock after, so both held it.
   */
  async #breakStale(file: string): Promise<void> {
    const guard = `${file}${BREAK_SUFFIX}`;
    if (!(await this.#take(guard, randomBytes(8).toString('hex')))) {
      // Another waiter is removing it; a guard whose process died (or hung) there is removed so that the lock is not
      // held up for good.
      if (await this.#stale(guard, BREAK_STALE_MS)) await fs.rm(guard, { force: true });
      return;
    }
    try {
      if (await this.#stale(file, this.#staleMs)) await fs.rm(file, { force: true });
    } finally {
      await fs.rm(guard, { force: true });
    }
  }

  /** Whether the lock (or guard) at `file` was left by a dead process, is no lock file, or is older than `maxAgeMs`. */
  async #stale(file: string, maxAgeMs: number): Promise<boolean> {
    let st;
    try {
      st = await fs.lstat(file);
    } catch {
      return false; // released meanwhile: the next try takes it
    }
    if (st.isSymbolicLink()) return true;
    try {
      const { pid } = JSON.parse(await fs.readFile(file, 'utf8')) as { pid?: number };
      if (typeof pid === 'number' && pid !== process.pid && !alive(pid)) return true;
    } catch {
      // Not written by `#take` (an earlier version's lock, or garbage): judge by age alone.
    }
    return Date.now() - st.mtimeMs > maxAgeMs;
  }
}
