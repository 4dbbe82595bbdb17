/**
 * One writer per workspace at a time: a queue inside this process plus `memory/.tide.lock` across processes,
 * so the server's auto-tend and a CLI `journal add` never interleave their read-modify-write steps.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { TidepoolError } from '../core/errors.js';

/** Lock file name inside `memory/`. */
export const LOCK_FILE = '.tide.lock';
// A holder that has not finished in a minute has died (a tend of a few hundred small files takes well under a second).
const STALE_MS = 60_000;
const WAIT_MS = 15_000;
const RETRY_MS = 25;
/** What `link` answers on a file system without hard links. */
const NO_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS'];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Serialises work per `memory/` folder. */
export class WorkspaceLocks {
  #tails = new Map<string, Promise<unknown>>();

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
    for (;;) {
      if (await this.#take(file)) break;
      if (await this.#stale(file)) {
        await fs.rm(file, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new TidepoolError(
          'locked',
          `${memoryPath} is busy (another Tidepool process holds ${LOCK_FILE})`,
        );
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
    try {
      return await fn();
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  /**
   * Creates the lock file with its holder already in it: written to a temp file, then linked to the lock's name (a
   * link never replaces a file). A process killed at any moment leaves no lock or one that names it, never an empty
   * one: created first and written after, an empty lock waited out its minute of age (`STALE_MS`) before anyone could
   * take it. A temp file of a killed process is an atomic write's leftover (`MemoryDir.removeStrayTemps`). False when
   * another holds the lock.
   */
  async #take(file: string): Promise<boolean> {
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.writeFile(tmp, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: 'wx' });
    } catch (e) {
      throw new TidepoolError('io_failed', `lock ${file}: ${(e as Error).message}`, { cause: e });
    }
    try {
      await fs.link(tmp, file);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // EEXIST: held. ENOENT: the holder's tend swept the temp file meanwhile; the next try writes another.
      if (code === 'EEXIST' || code === 'ENOENT') return false;
      // A file system without hard links (as `MemoryDir.linkNoClobber` allows): created, then written.
      if (NO_LINKS.includes(code ?? '')) return this.#create(file);
      throw new TidepoolError('io_failed', `lock ${file}: ${(e as Error).message}`, { cause: e });
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  /** The lock file created and then written (`#take` where there are no hard links); false when another holds it. */
  async #create(file: string): Promise<boolean> {
    try {
      await fs.writeFile(file, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new TidepoolError('io_failed', `lock ${file}: ${(e as Error).message}`, { cause: e });
    }
  }

  async #stale(file: string): Promise<boolean> {
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
    return Date.now() - st.mtimeMs > STALE_MS;
  }
}
