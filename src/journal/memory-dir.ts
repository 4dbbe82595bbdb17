/**
 * The one door to a workspace's `memory/` folder: every path is built from validated parts, no symlink is followed,
 * writes are atomic (temp file + fsync + rename in the same folder) and moves never overwrite (SEEDS §2.3, DESIGN §10).
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { TidepoolError } from '../core/errors.js';
import { isJournalDate } from './journal-date.js';
import type { DayLocation } from './tide-policy.js';

/** Name of the memory folder inside a workspace. */
export const MEMORY_DIR = 'memory';
const DAY_RE = /^(\d{4}-\d{2}-\d{2})\.md$/;
const TEMP_RE = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;
const WALK_LIMIT = 20_000;

/** A day file found on disk; `file` is relative to `memory/`. */
export interface DayEntry {
  date: string;
  location: DayLocation;
  file: string;
}

/** Path of a day file relative to `memory/`. */
export function dayFilePath(location: DayLocation, date: string): string {
  return location === 'legacy' ? `${date}.md` : `archive/${location}/${date}.md`;
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

function ioFailed(e: unknown, what: string): TidepoolError {
  return e instanceof TidepoolError
    ? e
    : new TidepoolError('io_failed', `${what}: ${(e as Error).message}`, { cause: e });
}

/** Resolves `root` to the real path of an existing directory, or throws `invalid_input` (SEEDS §2.3 `root`). */
export async function resolveWorkspaceRoot(root: string): Promise<string> {
  if (typeof root !== 'string' || root.trim() === '' || root.includes('\0')) {
    throw new TidepoolError('invalid_input', 'root: expected a directory path', { field: 'root' });
  }
  try {
    const real = await fs.realpath(path.resolve(root));
    if ((await fs.stat(real)).isDirectory()) return real;
  } catch (e) {
    if (code(e) !== 'ENOENT' && code(e) !== 'ENOTDIR') throw ioFailed(e, `root ${root}`);
  }
  throw new TidepoolError('invalid_input', `root: ${root} is not an existing directory`, { field: 'root' });
}

/** Writes `data` to `abs` through a temp file in the same folder, fsynced, then renamed over the target. */
export async function writeFileAtomic(abs: string, data: string | Buffer): Promise<void> {
  const tmp = path.join(
    path.dirname(abs),
    `.${path.basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const fh = await fs.open(tmp, 'wx', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await fs.rename(tmp, abs);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

/** What `link` answers on a file system without hard links. */
const NO_HARD_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS'];

/**
 * Creates `abs` holding `data` unless something is there already (false then). Never seen half-written: the data is
 * written to a temp file in the same folder (fsynced with `sync`), which is then hard-linked to `abs` (a link never
 * replaces a file); a process killed at any moment leaves the whole file or none, and at most the temp file, which a
 * tend removes (`removeStrayTemps`). Created and then written where the file system has no hard links.
 */
export async function createWhole(abs: string, data: string, o: { sync?: boolean } = {}): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const fh = await fs.open(tmp, 'wx', 0o644);
    try {
      await fh.writeFile(data);
      if (o.sync) await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await fs.link(tmp, abs);
      return true;
    } catch (e) {
      if (code(e) === 'EEXIST') return false;
      // Swept by a tend in another process before it was linked: written again.
      if (code(e) === 'ENOENT' && attempt < 3) continue;
      if (!NO_HARD_LINKS.includes(code(e) ?? '')) throw e;
      try {
        await fs.writeFile(abs, data, { flag: 'wx', mode: 0o644 });
        return true;
      } catch (e2) {
        if (code(e2) === 'EEXIST') return false;
        throw e2;
      }
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }
}

/** A workspace's `memory/` folder. Relative paths use `/` and never contain `..`, `.` or empty parts. */
export class MemoryDir {
  /** Real path of the workspace. */
  readonly root: string;
  /** Absolute path of `memory/`. */
  readonly path: string;

  private constructor(root: string) {
    this.root = root;
    this.path = path.join(root, MEMORY_DIR);
  }

  /** Opens the memory folder of `root`, which must be an existing directory; creates nothing. */
  static async open(root: string): Promise<MemoryDir> {
    return new MemoryDir(await resolveWorkspaceRoot(root));
  }

  /** True when `memory/` exists as a real folder; a symlinked `memory/` is refused with `forbidden`. */
  async exists(): Promise<boolean> {
    return (await this.#guard('')) === 'ok';
  }

  /** Creates `memory/`, `archive/hot/` and `archive/cold/` where missing; returns what it created. */
  async ensureLayout(): Promise<string[]> {
    const created: string[] = [];
    for (const rel of ['', 'archive', 'archive/hot', 'archive/cold']) {
      if ((await this.#guard(rel)) === 'ok') continue;
      try {
        await fs.mkdir(this.abs(rel));
        created.push(rel === '' ? `${MEMORY_DIR}/` : `${rel}/`);
      } catch (e) {
        if (code(e) !== 'EEXIST') throw ioFailed(e, `create ${rel || MEMORY_DIR}`);
      }
    }
    return created;
  }

  /** Absolute path of `rel`, after checking that `rel` cannot leave `memory/`. */
  abs(rel: string): string {
    const parts = rel === '' ? [] : rel.split('/');
    if (
      rel.includes('\0') ||
      rel.includes('\\') ||
      path.isAbsolute(rel) ||
      parts.some((p) => p === '' || p === '.' || p === '..')
    ) {
      throw new TidepoolError('forbidden', `path ${JSON.stringify(rel)} would leave memory/`, {
        details: { path: rel },
      });
    }
    return path.join(this.path, ...parts);
  }

  /** Lstat every component of `rel` from `memory/` down: `missing`, or `ok`; a symlink anywhere throws `forbidden`. */
  async #guard(rel: string): Promise<'ok' | 'missing'> {
    this.abs(rel);
    const parts = rel === '' ? [] : rel.split('/');
    for (let i = 0; i <= parts.length; i++) {
      const p = this.abs(parts.slice(0, i).join('/'));
      try {
        const st = await fs.lstat(p);
        if (st.isSymbolicLink()) {
          throw new TidepoolError(
            'forbidden',
            `${path.relative(this.root, p)} is a symlink; the journal never follows links`,
            { details: { path: p } },
          );
        }
      } catch (e) {
        if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return 'missing';
        throw ioFailed(e, `stat ${p}`);
      }
    }
    return 'ok';
  }

  /** Bytes of `rel`, or undefined when it does not exist. */
  async readBytes(rel: string): Promise<Buffer | undefined> {
    if ((await this.#guard(rel)) === 'missing') return undefined;
    try {
      return await fs.readFile(this.abs(rel));
    } catch (e) {
      if (code(e) === 'ENOENT') return undefined;
      throw ioFailed(e, `read ${rel}`);
    }
  }

  /** UTF-8 text of `rel`, or undefined when it does not exist. */
  async readText(rel: string): Promise<string | undefined> {
    return (await this.readBytes(rel))?.toString('utf8');
  }

  /** Replaces `rel` atomically; its folder must exist. */
  async writeAtomic(rel: string, data: string | Buffer): Promise<void> {
    await this.#guard(rel);
    try {
      await writeFileAtomic(this.abs(rel), data);
    } catch (e) {
      throw ioFailed(e, `write ${rel}`);
    }
  }

  /** Creates `rel` only when nothing exists there (not even a dangling link), whole (`createWhole`); true when it wrote. */
  async createExclusive(rel: string, text: string): Promise<boolean> {
    await this.#guard(path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel));
    try {
      return await createWhole(this.abs(rel), text, { sync: true });
    } catch (e) {
      throw ioFailed(e, `create ${rel}`);
    }
  }

  /** Removes the file `rel`; false when it was already gone. */
  async remove(rel: string): Promise<boolean> {
    if ((await this.#guard(rel)) === 'missing') return false;
    try {
      await fs.unlink(this.abs(rel));
      return true;
    } catch (e) {
      if (code(e) === 'ENOENT') return false;
      throw ioFailed(e, `remove ${rel}`);
    }
  }

  /**
   * Makes `to` a second name of `from` without ever replacing an existing `to` (hard link; a verified copy where the
   * file system has no hard links). Both names then hold identical bytes until the caller removes `from`.
   */
  async linkNoClobber(from: string, to: string): Promise<'linked' | 'exists' | 'missing'> {
    if ((await this.#guard(from)) === 'missing') return 'missing';
    await this.#guard(to);
    try {
      await fs.link(this.abs(from), this.abs(to));
      return 'linked';
    } catch (e) {
      if (code(e) === 'EEXIST') return 'exists';
      if (!NO_HARD_LINKS.includes(code(e) ?? ''))
        throw ioFailed(e, `link ${from} → ${to}`);
    }
    return this.#copyNoClobber(from, to);
  }

  async #copyNoClobber(from: string, to: string): Promise<'linked' | 'exists'> {
    const abs = this.abs(to);
    const tmp = path.join(
      path.dirname(abs),
      `.${path.basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    try {
      await fs.copyFile(this.abs(from), tmp, constants.COPYFILE_EXCL);
      const fh = await fs.open(tmp, 'r+');
      await fh.sync().finally(() => fh.close());
      // No hard links here either: check then rename; the workspace lock keeps other writers of this tool out.
      if ((await this.#guard(to)) === 'ok') return 'exists';
      await fs.rename(tmp, abs);
      return 'linked';
    } catch (e) {
      throw ioFailed(e, `copy ${from} → ${to}`);
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  /** Every day file in `memory/` (legacy), `archive/hot/` and `archive/cold/`; symlinks and other names are skipped. */
  async listDays(): Promise<DayEntry[]> {
    const out: DayEntry[] = [];
    for (const location of ['hot', 'cold', 'legacy'] as const) {
      const dir = location === 'legacy' ? '' : `archive/${location}`;
      if ((await this.#guard(dir)) === 'missing') continue;
      for (const ent of await this.#readdir(dir)) {
        const date = DAY_RE.exec(ent.name)?.[1];
        if (date && ent.isFile() && isJournalDate(date))
          out.push({ date, location, file: dayFilePath(location, date) });
      }
    }
    return out.sort((a, b) => a.date.localeCompare(b.date) || a.location.localeCompare(b.location));
  }

  async #readdir(rel: string) {
    try {
      return await fs.readdir(this.abs(rel), { withFileTypes: true });
    } catch (e) {
      if (code(e) === 'ENOENT') return [];
      throw ioFailed(e, `list ${rel || MEMORY_DIR}`);
    }
  }

  /** Every file and folder under `memory/` (links listed, never entered), relative; at most 20,000 entries. */
  async walk(): Promise<Set<string>> {
    const seen = new Set<string>();
    const queue = [''];
    while (queue.length > 0 && seen.size < WALK_LIMIT) {
      const dir = queue.shift()!;
      for (const ent of await this.#readdir(dir)) {
        const rel = dir === '' ? ent.name : `${dir}/${ent.name}`;
        seen.add(rel);
        if (ent.isDirectory()) queue.push(rel);
      }
    }
    return seen;
  }

  /** Removes temp files left by an interrupted atomic write; call under the workspace lock. */
  async removeStrayTemps(): Promise<string[]> {
    const removed: string[] = [];
    for (const dir of ['', 'archive/hot', 'archive/cold']) {
      if ((await this.#guard(dir)) === 'missing') continue;
      for (const ent of await this.#readdir(dir)) {
        if (!ent.isFile() || !TEMP_RE.test(ent.name)) continue;
        const rel = dir === '' ? ent.name : `${dir}/${ent.name}`;
        if (await this.remove(rel)) removed.push(rel);
      }
    }
    return removed;
  }
}
