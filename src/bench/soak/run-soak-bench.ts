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
import { createRng } from '../../script/seeded-rng.js';
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
  /** RSS of this process (server, nights and the load generator); slopes of RSS over the windows, MB a minute. */
  rss: { startMb: number; endMb: number; growthMb: number; slopeMbPerMin: number; secondHalfSlopeMbPerMin: number };
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

      // Memory and file sizes are read when a window ends; its requests are counted at the end, once all have answered.
      const snapshots: Array<Pick<SoakWindow, 'rssMb' | 'rssGrowthMb' | 'heapUsedMb' | 'dbMb' | 'walMb'>> = [];
      const snapshot = () => {
        const mu = process.memoryUsage();
        snapshots.push({ rssMb: mb(mu.rss), rssGrowthMb: mb(mu.rss - lastRss), heapUsedMb: mb(mu.heapUsed), dbMb: mb(fileSize(path)), walMb: mb(fileSize(`${path}-wal`)) });
        lastRss = mu.rss;
        const s = snapshots.at(-1)!;
        o.onProgress?.(`${Math.round(at() / 1000)} s: RSS ${s.rssMb} MB, heap ${s.heapUsedMb} MB, DB ${s.dbMb} MB + WAL ${s.walMb} MB, ${non2xx + exceptions} error(s) so far`);
      };
      const windowCount = Math.ceil(seconds / windowSeconds);

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
        while (nextWindow < windowCount - 1 && (nextWindow + 1) * windowSeconds * 1000 <= at()) {
          snapshot();
          nextWindow++;
        }
      }
      await Promise.all(inFlight);
      await night;
      while (snapshots.length < windowCount) snapshot();
      for (let index = 0; index < windowCount; index++) {
        const fromMs = index * windowSeconds * 1000;
        const toMs = Math.min((index + 1) * windowSeconds * 1000, seconds * 1000);
        const inWindow = samples.filter((x) => x.dueMs >= fromMs && x.dueMs < toMs);
        const lat = inWindow.map((x) => x.doneMs - x.dueMs);
        windows.push({
          fromS: fromMs / 1000, toS: toMs / 1000, requests: inWindow.length, errors: inWindow.filter((x) => !x.ok).length,
          p50Ms: ms(percentile(lat, 50)), p99Ms: ms(percentile(lat, 99)), ...snapshots[index]!,
          nightsStarted: nightStarts.filter((t) => t >= fromMs && t < toMs).length,
        });
      }

      const lat = samples.map((s) => s.doneMs - s.dueMs);
      const byKind = (k: Kind) => {
        const l = samples.filter((s) => s.kind === k).map((s) => s.doneMs - s.dueMs);
        return { p50Ms: ms(percentile(l, 50)), p99Ms: ms(percentile(l, 99)) };
      };
      const count = (k: Kind) => samples.filter((s) => s.kind === k).length;
      const rss1 = process.memoryUsage.rss();
      const db1 = fileSize(path) + fileSize(`${path}-wal`);
      // The first windows warm up (JIT, SQLite's page cache, connection pools): a leak is growth that goes on, so the
      // slope is also taken over the second half alone.
      const steady = windows.length > 2 ? windows.slice(1) : windows;
      const late = windows.slice(Math.floor(windows.length / 2));
      const slopeOf = (ws: readonly SoakWindow[]) => roundTo(slope(ws.map((w) => w.toS / 60), ws.map((w) => w.rssMb)), 2);
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
          slopeMbPerMin: slopeOf(steady), secondHalfSlopeMbPerMin: slopeOf(late),
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
    `- RSS: ${r.rss.startMb} → ${r.rss.endMb} MB (${r.rss.growthMb >= 0 ? '+' : ''}${r.rss.growthMb} MB); slope after the first window ${r.rss.slopeMbPerMin} MB/min, over the second half ${r.rss.secondHalfSlopeMbPerMin} MB/min`,
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
