/**
 * chrono-node's locales as `npm run build` ships them (dist/cli/chrono-<locale>.cjs, scripts/bundle-cli.mjs): the built
 * time reader loads those files, not the package's hundred modules, and they read every expression as the package does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const bundled = (locale: string): string => join(root, 'dist', 'cli', `chrono-${locale}.cjs`);

interface Parsed {
  index: number;
  text: string;
  start: { date(): Date; isCertain(c: string): boolean };
  end?: { date(): Date } | null;
}
type Locale = { parse(text: string, ref: { instant: Date; timezone: number }): Parsed[] };

/** What a reading gives, in a form two copies of chrono-node can be compared by. */
const reading = (chrono: Locale, text: string, now: Date): unknown =>
  chrono.parse(text, { instant: now, timezone: 0 }).map((r) => ({
    index: r.index,
    text: r.text,
    start: r.start.date().toISOString(),
    end: r.end?.date().toISOString() ?? null,
    certain: ['year', 'month', 'day', 'weekday', 'hour'].filter((c) => r.start.isCertain(c)),
  }));

const TEXTS = {
  en: [
    'What painting did Melanie show to Caroline on October 13, 2023?',
    'what did we deploy yesterday',
    'the billing cache last week',
    'between May 3 and May 10, 2023',
    'three days ago we met at 5pm',
    'next friday after lunch',
    'in June',
    'on 1 February, 2023',
    'this quarter and last month',
    'two weeks from now',
    'Sat 7/4 at noon',
    'fix this bug in line 42',
  ],
  zh: [
    '2023年5月3日我们去了海边',
    '上周三的账单',
    '昨天下午三点',
    '下个月十五号',
    '三天前',
    '从五月一日到五月十日',
    '我明白你的意思',
  ],
} as const;

describe('chrono-node locales bundled by the build', () => {
  it('are built, and the built time reader loads them instead of the package', () => {
    for (const locale of ['en', 'zh']) expect(existsSync(bundled(locale))).toBe(true);
    // In a process of its own: the test workers' module cache holds whatever other test files loaded.
    const script = `
      import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'retrieval', 'time-expressions.js')).href)}).then((m) => {
        const now = Date.UTC(2024, 0, 10, 9);
        const windows = [m.queryTime('what did we deploy yesterday', now), m.queryTime('上周三的账单', now)].map((t) => t.windows.length);
        process.stdout.write(JSON.stringify({ windows, loaded: Object.keys(require.cache) }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
      windows: number[];
      loaded: string[];
    };
    expect(out.windows).toEqual([1, 1]);
    expect(out.loaded).toContain(bundled('en'));
    expect(out.loaded).toContain(bundled('zh'));
    expect(out.loaded.filter((f) => f.includes(join('node_modules', 'chrono-node')))).toEqual([]);
  });

  it('read every expression as the package does', () => {
    const now = new Date(Date.UTC(2024, 0, 10, 9));
    for (const locale of ['en', 'zh'] as const) {
      const ours = require(bundled(locale)) as Locale;
      const theirs = require(`chrono-node/${locale}`) as Locale;
      const read = TEXTS[locale].map((text) => {
        const got = reading(ours, text, now) as unknown[];
        expect(got, text).toEqual(reading(theirs, text, now));
        return got.length;
      });
      // The texts exercise the parsers: most of them name a time.
      expect(read.filter((n) => n > 0).length, locale).toBeGreaterThan(TEXTS[locale].length / 2);
    }
  });
});
