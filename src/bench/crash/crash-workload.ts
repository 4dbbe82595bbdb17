/**
 * What the crash bench's writers write: texts carrying a unique tag (so a write is found by its text as well as its
 * id), import files, and journal workspaces with work for every tide rule, with the checks of their days.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The tag of one write: round, lane and call (`x12l3n45`); a record batch's turns add `t<j>`. */
export function writeTag(round: number, lane: number, call: number): string {
  return `x${round}l${lane}n${call}`;
}

/** Every tag in a stored text (a turn's own `…t<j>` suffix included). */
export const TAG_PATTERN = /\bx\d+l\d+n\d+(?:t\d+)?\b/gu;

/** A turn's text: words the nights can consolidate, and the tag that identifies it. */
export function turnText(tag: string, j: number): string {
  const topics = ['the osprey migration schedule', 'the kestrel release plan', 'flaky login tests', 'the staging database'];
  return `Turn ${tag}t${j} about ${topics[j % topics.length]}; 第 ${j} 步已完成`;
}

/** A remembered fact's text (its key, when given, is shared by lanes so kills land inside supersedes). */
export function factText(tag: string): string {
  return `Fact ${tag}: the heron deploy window moved according to the kestrel plan`;
}

/** An OpenAI-style JSONL transcript of `n` turns for `tidepool import` (each line's content carries its tag). */
export function importFile(dir: string, tag: string, n: number): string {
  const file = join(dir, `${tag}.jsonl`);
  const lines = Array.from({ length: n }, (_, j) => JSON.stringify({ role: j % 2 === 0 ? 'user' : 'assistant', content: turnText(tag, j) }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const DAY = 86_400_000;
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** The places a journal day file can be in a workspace (the archive database is the fourth). */
const PLACES = {
  legacy: (d: string) => `memory/${d}.md`,
  hot: (d: string) => `memory/archive/hot/${d}.md`,
  cold: (d: string) => `memory/archive/cold/${d}.md`,
} as const;

/** A workspace's days with their SHA-256, as written. */
export type Days = Map<string, string>;

/**
 * Writes a workspace with work for every tide rule, relative to `today` (ms): legacy days to migrate to hot and
 * cold, old hot days that sink, a recent cold day that floats back, and a cold tier over `coldMaxFiles` whose oldest
 * days go to the archive database (the same shape as test/crash-safety.test.ts's workspace).
 */
export function buildWorkspace(root: string, today: number): Days {
  const days: Days = new Map();
  const put = (place: keyof typeof PLACES, n: number) => {
    const date = new Date(today - n * DAY).toISOString().slice(0, 10);
    const lines = Array.from({ length: 1 + (n % 7) }, (_, i) => `- 第 ${i + 1} 条：查了 sync race ${n}-${i}，终于找到竞态。`);
    const text = `# ${date}\n\n## 【09:${String(n % 60).padStart(2, '0')} kestrel notes ${n}】\n${lines.join('\n')}\n`;
    const file = join(root, PLACES[place](date));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    days.set(date, sha(text));
  };
  for (let n = 0; n < 60; n += 2) put('legacy', n);
  for (const n of [21, 23, 25, 27, 29, 31]) put('hot', n);
  put('cold', 1);
  for (let n = 65; n < 95; n += 3) put('cold', n);
  writeFileSync(join(root, 'memory', '.tide.json'), JSON.stringify({ coldMaxFiles: 15 }, null, 2));
  return days;
}

/**
 * How many places hold each day with its original bytes (files and archive rows whose bytes differ are returned as
 * `altered`). `archived` gives the archive database's copies of a day of this workspace.
 */
export function dayPlaces(root: string, days: Days, archived: (day: string) => string[]): { counts: Map<string, number>; altered: string[] } {
  const counts = new Map<string, number>();
  const altered: string[] = [];
  for (const [date, hash] of days) {
    let n = 0;
    for (const [place, rel] of Object.entries(PLACES)) {
      const file = join(root, rel(date));
      if (!existsSync(file)) continue;
      if (sha(readFileSync(file)) === hash) n += 1;
      else altered.push(`${date} in ${place}`);
    }
    for (const content of archived(date)) {
      if (sha(content) === hash) n += 1;
      else altered.push(`${date} in the archive`);
    }
    counts.set(date, n);
  }
  return { counts, altered };
}
