/**
 * Soak benchmark: a fixed rate of mixed requests (recall, ingest, remember) over real HTTP on 127.0.0.1 against a
 * SQLite memory in a temp dir for a fixed time, with a sleep night every few seconds while the load goes on; reports
 * errors, latency per window, RSS and database growth (a leak shows as steady growth window after window).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openMemory } from '../../boot/open-memory.js';
import { startHttpServer } from '../../boot/serve.js';
import { percentile, roundTo } from '../percentile.js';
import { createRng } from '../scale/seeded-rng.js';
import { syntheticEpisodes } from '../scale/synthetic-episodes.js';

/** Options of {@link runSoakBench}. */
export interface SoakOptions {
  /** How long the load runs; default 120 s. */
  seconds?: number;
  /** Requests started per second, whatever the answers take (open loop); default 50. */
  rate?: number;
  /** Seconds between the starts of two nights; default 30. */
  sleepEvery?: number;
  /** The nights' model; default `none` (the deterministic steps). */
  model?: string;
  /** Length of a report window; default 10 s. */
  windowSeconds?: number;
  /** Turns in the memory before the load starts; default 2,000. */
  seedTurns?: number;
  onProgress?: (line: string) => void;
}

type Kind = 'recall' | 'ingest' | 'remember';

/** One report window. */
export interface SoakWindow {
  /** Seconds since the load started, at the window's start. */
  fromS: number;
  toS: number;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
  /** RSS change since the previous window's end (the first: since the start). */
  rssGrowthMb: number;
  heapUsedMb: number;
  dbMb: number;
  walMb: number;
  nightsStarted: number;
}

/** What {@link runSoakBench} measured. */
export interface SoakReport {
  seconds: number;
  rate: number;
  sleepEvery: number;
  model: string;
  windowSeconds: number;
  seedTurns: number;
  requests: { total: number; recall: number; ingest: number; remember: number; perSecond: number };
  /** Every non-2xx answer and every request that threw; the first few are kept in `samples`. */
  errors: { total: number; non2xx: number; exceptions: number; samples: string[] };
  /** From the moment a request was due to the end of its answer, so a stalled server is not hidden. */
  latency: { p50Ms: number; p99Ms: number; maxMs: number; byKind: Record<Kind, { p50Ms: number; p99Ms: number }> };
  nights: { started: number; slept: number; other: Record<string, number>; failed: number; skippedOverlap: number; p50Ms: number; maxMs: number };
  rss: { startMb: number; endMb: number; growthMb: number; slopeMbPerMin: number };
  db: { startMb: number; endMb: number; growthMb: number; walEndMb: number };
  windows: SoakWindow[];
}

const QUERIES = ['deploy pipeline', 'staging database', 'review meeting', 'sync race', 'release notes', 'budget', 'cache', 'migration plan', '部署', 'who owns the cache'];
const MB = 1024 * 1024;
const mb = (bytes: number) => roundTo(bytes / MB, 2);
const ms = (x: number) => (Number.isNaN(x) ? 0 : roundTo(x, 1));

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Least-squares slope of `ys` against `xs`; 0 with fewer than two points. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

interface Sample {
  kind: Kind;
  dueMs: number;
  doneMs: number;
  ok: boolean;
}

/** Seeds a memory, serves it on 127.0.0.1 and drives it at a fixed rate, with nights, for `seconds`. */
export async function runSoakBench(o: SoakOptions = {}): Promise<SoakReport> {
  const seconds = o.seconds ?? 120;
  const rate = o.rate ?? 50;
  const sleepEvery = o.sleepEvery ?? 30;
  const model = o.model ?? 'none';
  const windowSeconds = o.windowSeconds ?? 10;
  const seedTurns = o.seedTurns ?? 2000;
  const dir = mkdtempSync(join(tmpdir(), 'tidepool-soak-'));
  const path = join(dir, 'soak.db');
  const memory = await openMemory({ path, embedder: 'none', warn: () => undefined });
  try {
    // Seeded turns lie in the past days, so the nights find consolidated and waiting episodes alike.
    const gen = syntheticEpisodes({ seed: 11, startAt: Date.now() - 3 * 86_400_000 });
    for (let done = 0; done < seedTurns; ) {
      const n = Math.min(2000, seedTurns - done);
      const turns = Array.from({ length: n }, () => {
        const e = gen.next().value;
        return { role: e.role, content: e.text, session: e.sessionId, speaker: e.speaker, at: e.at };
      });
      await memory.record({ turns });
      done += n;
    }
    o.onProgress?.(`seeded ${seedTurns} turns`);
    const server = await startHttpServer(memory, { host: '127.0.0.1', port: 0 });
    const samples: Sample[] = [];
    const errorSamples: string[] = [];
    let non2xx = 0;
    let exceptions = 0;
    const nightMs: number[] = [];
    const nightStarts: number[] = [];
    const nightKinds: Record<string, number> = {};
    let nightsFailed = 0;
    let skippedOverlap = 0;
    const windows: SoakWindow[] = [];
    try {
      const rng = createRng(rate * 1000 + seconds);
      const live = syntheticEpisodes({ seed: 12 });
      const t0 = performance.now();
      const at = () => performance.now() - t0;
      const rss0 = process.memoryUsage.rss();
      const db0 = fileSize(path) + fileSize(`${path}-wal`);
      let lastRss = rss0;

      const send = async (i: number, dueMs: number): Promise<void> => {
        const r = rng.next();
        const kind: Kind = r < 0.6 ? 'recall' : r < 0.95 ? 'ingest' : 'remember';
        let req: { path: string; init?: RequestInit };
        if (kind === 'recall') {
          req = { path: `/v1/recall?q=${encodeURIComponent(rng.pick(QUERIES))}&limit=10` };
        } else {
          const e = live.next().value;
          const body = kind === 'ingest'
            ? { content: e.text, session: `soak-${i % 40}`, role: e.role, speaker: e.speaker }
            : { text: `Soak fact ${i}: ${e.text}`, tags: ['soak'] };
          req = { path: kind === 'ingest' ? '/v1/ingest' : '/v1/remember', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } };
        }
        let ok = false;
        try {
          const res = await fetch(server.url + req.path, req.init);
          const text = await res.text();
          ok = res.status >= 200 && res.status < 300;
          if (!ok) {
            non2xx++;
            if (errorSamples.length < 10) errorSamples.push(`${kind} ${res.status}: ${text.slice(0, 200)}`);
          }
        } catch (e) {
          exceptions++;
          if (errorSamples.length < 10) errorSamples.push(`${kind} threw: ${e instanceof Error ? e.message : String(e)}`);
        }
        samples.push({ kind, dueMs, doneMs: at(), ok });
      };

      let night: Promise<void> | undefined;
      const startNight = () => {
        if (night) {
          skippedOverlap++;
          return;
        }
        nightStarts.push(at());
        const began = performance.now();
        night = memory
          .sleep({ model, force: true })
          .then((r) => {
            nightKinds[r.kind] = (nightKinds[r.kind] ?? 0) + 1;
          })
          .catch((e: unknown) => {
            nightsFailed++;
            if (errorSamples.length < 10) errorSamples.push(`night failed: ${e instanceof Error ? e.message : String(e)}`);
          })
          .finally(() => {
            nightMs.push(performance.now() - began);
            night = undefined;
          });
      };

      const closeWindow = (index: number) => {
        const fromMs = index * windowSeconds * 1000;
        const toMs = Math.min((index + 1) * windowSeconds * 1000, seconds * 1000);
        const inWindow = samples.filter((s) => s.dueMs >= fromMs && s.dueMs < toMs);
        const lat = inWindow.map((s) => s.doneMs - s.dueMs);
        const mu = process.memoryUsage();
        windows.push({
          fromS: fromMs / 1000, toS: toMs / 1000, requests: inWindow.length, errors: inWindow.filter((s) => !s.ok).length,
          p50Ms: ms(percentile(lat, 50)), p99Ms: ms(percentile(lat, 99)),
          rssMb: mb(mu.rss), rssGrowthMb: mb(mu.rss - lastRss), heapUsedMb: mb(mu.heapUsed),
          dbMb: mb(fileSize(path)), walMb: mb(fileSize(`${path}-wal`)),
          nightsStarted: nightStarts.filter((t) => t >= fromMs && t < toMs).length,
        });
        lastRss = mu.rss;
        const w = windows.at(-1)!;
        o.onProgress?.(`${w.toS} s: ${w.requests} requests, ${w.errors} errors, p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms, RSS ${w.rssMb} MB`);
      };

      // Open loop: request i is due at i/rate seconds and is sent then, however long earlier answers take.
      const inFlight = new Set<Promise<void>>();
      const total = Math.floor(seconds * rate);
      let nextNight = sleepEvery * 1000;
      let nextWindow = 0;
      for (let i = 0; i < total; i++) {
        const due = (i * 1000) / rate;
        while (nextNight <= due) {
          startNight();
          nextNight += sleepEvery * 1000;
        }
        const wait = due - at();
        if (wait > 1) await delay(wait);
        const p = send(i, due);
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
        // A window is reported once the requests due in it have had a second to answer.
        while ((nextWindow + 1) * windowSeconds * 1000 + 1000 <= at() && (nextWindow + 1) * windowSeconds < seconds) closeWindow(nextWindow++);
      }
      await Promise.all(inFlight);
      await night;
      while (nextWindow * windowSeconds < seconds) closeWindow(nextWindow++);

      const lat = samples.map((s) => s.doneMs - s.dueMs);
      const byKind = (k: Kind) => {
        const l = samples.filter((s) => s.kind === k).map((s) => s.doneMs - s.dueMs);
        return { p50Ms: ms(percentile(l, 50)), p99Ms: ms(percentile(l, 99)) };
      };
      const count = (k: Kind) => samples.filter((s) => s.kind === k).length;
      const rss1 = process.memoryUsage.rss();
      const db1 = fileSize(path) + fileSize(`${path}-wal`);
      // The first window warms up (JIT, caches, pools): the slope is taken over the windows after it.
      const steady = windows.length > 2 ? windows.slice(1) : windows;
      return {
        seconds, rate, sleepEvery, model, windowSeconds, seedTurns,
        requests: { total: samples.length, recall: count('recall'), ingest: count('ingest'), remember: count('remember'), perSecond: roundTo(samples.length / seconds, 1) },
        errors: { total: non2xx + exceptions, non2xx, exceptions, samples: errorSamples },
        latency: { p50Ms: ms(percentile(lat, 50)), p99Ms: ms(percentile(lat, 99)), maxMs: ms(Math.max(0, ...lat)), byKind: { recall: byKind('recall'), ingest: byKind('ingest'), remember: byKind('remember') } },
        nights: {
          started: nightStarts.length, slept: nightKinds.slept ?? 0,
          other: Object.fromEntries(Object.entries(nightKinds).filter(([k]) => k !== 'slept')),
          failed: nightsFailed, skippedOverlap, p50Ms: ms(percentile(nightMs, 50)), maxMs: ms(Math.max(0, ...nightMs)),
        },
        rss: {
          startMb: mb(rss0), endMb: mb(rss1), growthMb: mb(rss1 - rss0),
          slopeMbPerMin: roundTo(slope(steady.map((w) => w.toS / 60), steady.map((w) => w.rssMb)), 2),
        },
        db: { startMb: mb(db0), endMb: mb(db1), growthMb: mb(db1 - db0), walEndMb: mb(fileSize(`${path}-wal`)) },
        windows,
      };
    } finally {
      await server.close();
    }
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report as markdown: a summary and one row per window. */
export function renderSoakMarkdown(r: SoakReport): string {
  const other = Object.entries(r.nights.other).map(([k, n]) => `, ${n} ${k}`).join('');
  const lines = [
    `## Soak: ${r.seconds} s at ${r.rate} req/s (60 % recall, 35 % ingest, 5 % remember), a night (model ${r.model}) every ${r.sleepEvery} s, ${r.seedTurns} turns seeded`,
    '',
    `- requests: ${r.requests.total} (recall ${r.requests.recall}, ingest ${r.requests.ingest}, remember ${r.requests.remember}), ${r.requests.perSecond} req/s`,
    `- errors: **${r.errors.total}** (non-2xx ${r.errors.non2xx}, exceptions ${r.errors.exceptions})${r.errors.samples.length ? `; first: ${r.errors.samples[0]}` : ''}`,
    `- latency from due time: p50 ${r.latency.p50Ms} ms, p99 ${r.latency.p99Ms} ms, max ${r.latency.maxMs} ms; recall p50/p99 ${r.latency.byKind.recall.p50Ms}/${r.latency.byKind.recall.p99Ms} ms, ingest ${r.latency.byKind.ingest.p50Ms}/${r.latency.byKind.ingest.p99Ms} ms, remember ${r.latency.byKind.remember.p50Ms}/${r.latency.byKind.remember.p99Ms} ms`,
    `- nights: ${r.nights.started} started, ${r.nights.slept} slept${other}, ${r.nights.failed} failed, ${r.nights.skippedOverlap} skipped (previous still running); p50 ${r.nights.p50Ms} ms, max ${r.nights.maxMs} ms`,
    `- RSS: ${r.rss.startMb} → ${r.rss.endMb} MB (${r.rss.growthMb >= 0 ? '+' : ''}${r.rss.growthMb} MB); slope after the first window ${r.rss.slopeMbPerMin} MB/min`,
    `- database (file + WAL): ${r.db.startMb} → ${r.db.endMb} MB (+${r.db.growthMb} MB), WAL at the end ${r.db.walEndMb} MB`,
    '',
    '| window s | requests | errors | p50 ms | p99 ms | RSS MB | ΔRSS MB | heap MB | DB MB | WAL MB | nights |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const w of r.windows) {
    lines.push(`| ${w.fromS}–${w.toS} | ${w.requests} | ${w.errors} | ${w.p50Ms} | ${w.p99Ms} | ${w.rssMb} | ${w.rssGrowthMb >= 0 ? '+' : ''}${w.rssGrowthMb} | ${w.heapUsedMb} | ${w.dbMb} | ${w.walMb} | ${w.nightsStarted} |`);
  }
  return lines.join('\n');
}
