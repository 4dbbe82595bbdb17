/** The crash bench's HTTP lane: `serve --http` under request load from several clients, killed at random moments. */
import { request } from 'node:http';
import { batch, KEYS, type LaneResult, type LaneRound } from './crash-lanes.js';
import { factText, writeTag } from './crash-workload.js';
import { pause, spawnKillable } from './killable-process.js';

/** POSTs `body` to `url` with node:http (no browser headers, as a local program sends); status and parsed JSON. */
function post(url: string, path: string, body: string, type = 'application/json'): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': type, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The requests one HTTP client sends in turn: ingest batches, remembers (some keyed), `/v1/import` lines. */
async function httpWrite(r: LaneRound, url: string, next: () => number, out: LaneResult): Promise<void> {
  const call = next();
  const tag = writeTag(r.round, r.lane, call);
  const pick = call % 4;
  const fail = (route: string, a: { status: number; json: unknown }) => out.failures.push(`POST ${route} ${a.status}: ${JSON.stringify(a.json).slice(0, 200)}`);
  if (pick <= 1) {
    const a = await post(url, '/v1/ingest', JSON.stringify({ turns: batch(tag, 2 + Math.floor(r.rng() * 5)) }));
    if (a.status === 201) r.acks.push({ kind: 'turns', via: 'http', tag, ids: (a.json as { ids: string[] }).ids });
    else fail('/v1/ingest', a);
  } else if (pick === 2) {
    const key = r.rng() < 0.3 ? { key: `heron-${Math.floor(r.rng() * KEYS)}` } : {};
    const a = await post(url, '/v1/remember', JSON.stringify({ text: factText(tag), ...key }));
    const j = a.json as { id: string; episode_id?: string; episodeId?: string };
    const ep = j.episode_id ?? j.episodeId;
    if (a.status === 201) r.acks.push({ kind: 'fact', via: 'http', tag, id: j.id, ...(ep ? { episodeId: ep } : {}) });
    else fail('/v1/remember', a);
  } else {
    const tags = [tag, writeTag(r.round, r.lane, next()), writeTag(r.round, r.lane, next())];
    const a = await post(url, '/v1/import', tags.map((t) => JSON.stringify({ text: factText(t) })).join('\n'), 'application/x-ndjson');
    if (a.status !== 201) return void fail('/v1/import', a);
    const results = (a.json as { results: Array<{ id: string; episode_id?: string; episodeId?: string }> }).results;
    results.forEach((x, i) => {
      const ep = x.episode_id ?? x.episodeId;
      r.acks.push({ kind: 'fact', via: 'http', tag: tags[i]!, id: x.id, ...(ep ? { episodeId: ep } : {}) });
    });
  }
}

/**
 * `serve --http` on a free port, restarted until the round's end, with `clients` request loops while it runs. Each
 * server is killed at a moment drawn over 1.2 × the lane's pace (here: a server's life under load) from when it
 * listens; every fifth is killed at a moment from its spawn instead (so it lands in start-up and migration). A
 * request cut by the kill is not acknowledged.
 */
export async function httpLane(r: LaneRound, clients = 4): Promise<LaneResult> {
  const out: LaneResult = { kills: 0, exits: 0, failures: [], busy: 0 };
  const roundEnd = performance.now() + r.windowMs;
  let call = 0;
  const next = () => call++;
  for (let life = 0; performance.now() < roundEnd; life++) {
    const spawned = performance.now();
    const server = spawnKillable([r.bin, 'serve', '--http', '--port', '0', '--db', r.db]);
    let url: string | undefined;
    if (life % 5 !== 4) {
      const listening = server.waitForStderr((l) => l.includes('serving MCP at'), Math.max(1, roundEnd - spawned)).catch(() => undefined);
      const line = await listening;
      url = line ? /(http:\/\/127\.0\.0\.1:\d+)\/mcp/u.exec(line)?.[1] : undefined;
    }
    const killAt = Math.min(roundEnd, (url ? performance.now() : spawned) + r.rng() * 1.2 * r.pace.ms);
    const loop = async () => {
      while (url && performance.now() < killAt && server.running()) {
        try {
          await httpWrite(r, url, next, out);
        } catch {
          // The connection was cut by the kill: the write was never acknowledged.
          if (server.running() && performance.now() < killAt) out.failures.push('a request failed while the server ran');
        }
      }
    };
    const load = Promise.all(Array.from({ length: clients }, loop));
    await Promise.race([server.ended, pause(Math.max(0, killAt - performance.now()))]);
    const end = await server.kill();
    await load;
    if (end.signal === 'SIGKILL') out.kills += 1;
    else {
      out.exits += 1;
      out.failures.push(`serve exited on its own (code ${end.code}): ${end.stderr.trim().slice(0, 300)}`);
    }
  }
  return out;
}
