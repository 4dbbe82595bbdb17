// Injected recall with no model, until `bench lifetime` lands: per LoCoMo conversation, import it, `sleep --model none`,
// `script all`, then for each category 1-4 question build the session-start block and prefetch the question (each at
// its default budget, in a session of its own) and count the evidence turns whose text appears in either.
// Usage: npm run build && node bench/injected-recall.mjs [../shared/data/locomo/dev.json] [--prefetch-only|--context-only]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../dist/boot/open-memory.js';
import { FixedClock } from '../dist/core/clock.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? '../shared/data/locomo/dev.json';
const only = args.find((a) => a.startsWith('--'));
const data = JSON.parse(readFileSync(file, 'utf8'));
const norm = (s) => String(s).toLowerCase().replace(/\s+/g, ' ').trim();
const DAY = 86_400_000;
let found = 0;
let total = 0;
const perCat = {};
let ctxTokens = 0;
const prefetchTokens = [];
for (const conv of data) {
  const c = conv.conversation;
  const turns = new Map();
  let last = 0;
  for (const k of Object.keys(c)) {
    const m = /^session_(\d+)$/.exec(k);
    if (!m) continue;
    const at = Date.parse(c[`${k}_date_time`]?.replace(/^(\d+:\d+ [ap]m) on (.*)$/i, '$2 $1') ?? '');
    if (Number.isFinite(at)) last = Math.max(last, at);
    for (const t of c[k]) turns.set(t.dia_id, t.text);
  }
  const dir = mkdtempSync(join(tmpdir(), 'injected-recall-'));
  const path = join(dir, `${conv.sample_id}.json`);
  writeFileSync(path, JSON.stringify([conv]));
  // Questions are asked the day after the last session, as in `bench retrieval`; the night ran at 03:00 that day.
  const now = (Math.floor(last / DAY) + 1) * DAY + 3 * 3_600_000;
  const config = process.env.INJ_CONFIG ? JSON.parse(process.env.INJ_CONFIG) : undefined;
  const memory = await openMemory({ clock: new FixedClock(now + 6 * 3_600_000), path: join(dir, 'm.db'), space: 'bench', embedder: 'none', warn: () => {}, ...(config ? { config } : {}) });
  await memory.importFile({ path, readHead: async (n) => (await readFile(path)).subarray(0, n), readAll: () => readFile(path), format: 'locomo' });
  await memory.sleep({ model: 'none', now, force: true });
  await memory.scriptAll();
  let q = 0;
  for (const qa of conv.qa) {
    if (![1, 2, 3, 4].includes(qa.category)) continue;
    const session = `q${q++}`;
    const block = only === '--prefetch-only' ? { text: '', tokens: 0 } : await memory.buildContext({ session });
    const pre = only === '--context-only' ? { text: '' } : await memory.prefetch({ text: qa.question, session });
    ctxTokens = block.tokens;
    prefetchTokens.push(pre.text.length);
    const shown = norm(`${block.text}\n${pre.text}`);
    for (const ev of [qa.evidence].flat()) {
      for (const id of String(ev).split(/[;,]\s*/)) {
        const text = turns.get(id.trim());
        if (text === undefined) continue;
        const hit = shown.includes(norm(text));
        total++;
        if (hit) found++;
        perCat[qa.category] ??= [0, 0];
        perCat[qa.category][0] += hit ? 1 : 0;
        perCat[qa.category][1]++;
      }
    }
  }
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`${conv.sample_id}: ${found}/${total} so far (context ${ctxTokens} tokens)\n`);
}
const cats = Object.entries(perCat).map(([k, [f, t]]) => `cat ${k} ${(f / t).toFixed(3)}`).join(', ');
const meanChars = Math.round(prefetchTokens.reduce((a, b) => a + b, 0) / Math.max(1, prefetchTokens.length));
console.log(`injected recall ${(found / total).toFixed(3)} (${found}/${total} evidence turns${only ? `, ${only}` : ''}); ${cats}; prefetch ${meanChars} chars on average`);
