/** Dashboard in a real browser: Debian's Chromium (headless, via playwright-core) against the real server, seeded memory. */
/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from 'cytoscape';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type HttpHandle } from '../src/boot/serve.js';
import { PII_REVIEW_KEY } from '../src/sleep/pii-flags.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`dashboard tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!HAVE_CHROMIUM)('dashboard pages in Chromium', () => {
  let mem: TempMemory;
  let http: HttpHandle;
  let browser: Browser;
  let page: Page;
  let ws: string;
  const ids = { approve: 0, reject: 0, edit: 0, forget: 0 };
  const problems: string[] = [];

  beforeAll(async () => {
    mem = await tempMemory();
    const m = mem.memory;
    const store = appContextOf(m).store;
    ws = mkdtempSync(join(tmpdir(), 'tidepool-dash-ws-'));
    await m.registerJournalWorkspace(ws);
    await m.remember({ text: 'The staging database listens on port 6543', subject: 'staging', key: 'staging.port' });
    await m.remember({ text: 'Ana prefers short answers', kind: 'preference', subject: 'Ana' });
    const a = await m.remember({ text: 'The release train leaves on Tuesdays' });
    const b = await m.remember({ text: 'The release train leaves on Fridays' });
    ids.approve = Number(a.id.slice(1));
    ids.reject = Number(b.id.slice(1));
    await store.forSpace('default').knowledge.setStatus([ids.approve, ids.reject], 'quarantined', T0);
    await m.record({ turns: Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn number ${i} about the sync race`, session: 's1', at: T0 - (60 - i) * 60_000 })) });
    const n1 = await m.write({ gesture: 'Ana and Ben fixed the sync race together', entities_role: 'Ana=fix; Ben=review', tags: ['sync'] });
    const nid = Number(n1.id.slice(1));
    await store.forSpace('default').derived.putBriefing({
      day: '2026-11-01',
      headline: 'Sync race fixed; release day undecided',
      // Markdown as the night writes it, with memory text that tries to inject HTML.
      body: '# Briefing 2026-11-01\n\nSync race fixed; release day undecided\n\nNeeds review: 2 entries about the release train.\n\n## New knowledge\n\n- fact: **Ana** prefers `squash` merges\n- fact: <img src=x onerror="document.title=1"> stays text\n\n## Warnings\n\n- one',
      createdAt: T0,
    });
    await store.forSpace('default').derived.putBriefing({ day: '2026-10-31', headline: 'Staging moved to port 6543', body: 'Yesterday staging moved.', createdAt: T0 - 86_400_000 });
    await store.forSpace('default').derived.replaceTopicClusters([
      { name: 'sync race', keywords: ['sync', 'race'], size: 5, narrativeIds: [nid], lastActive: T0, avgWeight: 0.5 },
      { name: 'release train', keywords: ['release'], size: 3, narrativeIds: [], lastActive: T0, avgWeight: 0.4 },
    ]);
    await store.forSpace('default').derived.replaceEntityGraph({
      nodes: [{ entity: 'Ana', mentionCount: 4, firstSeen: T0, lastSeen: T0 }, { entity: 'Ben', mentionCount: 2, firstSeen: T0, lastSeen: T0 }, { entity: 'Cleo', mentionCount: 1, firstSeen: T0, lastSeen: T0 }],
      edges: [{ entityA: 'Ana', roleA: 'fix', entityB: 'Ben', roleB: 'review', narrativeId: nid, createdAt: T0 }],
      cooccur: [{ entityA: 'Ana', entityB: 'Ben', count: 1 }],
    });
    await m.record({ turns: [
      { role: 'user', speaker: 'Cleo', content: 'Cleo asks whether the harbour deploy is done', session: 's2', at: T0 - 200 * 60_000 },
      { role: 'assistant', content: 'The harbour deploy finished at noon', session: 's2', at: T0 - 199 * 60_000 },
    ] });
    ids.edit = Number((await m.remember({ text: 'The nightly export runs at 02:00' })).id.slice(1));
    ids.forget = Number((await m.remember({ text: 'The old wiki lives on the intranet' })).id.slice(1));
    await m.journal().add({ root: ws, heading: 'Fixed the sync race', content: 'Ana found the **race** in `sync.ts`.\n\n- added a lock\n- wrote a test', date: '2026-11-01', time: '14:30' });
    await m.recall({ query: 'sync race' });
    http = await startHttpServer(m, { host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    // The CSP has no 'unsafe-inline': any library that tried an inline style or script would show up here.
    page.on('console', (m) => { if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text())) problems.push(`${m.text()} (${m.location().url})`); });
    page.on('pageerror', (e) => problems.push(e.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await http?.close();
    await mem?.cleanup();
    rmSync(ws, { recursive: true, force: true });
  });

  async function open(hash: string, page_: string): Promise<void> {
    await page.goto(`${http.url}/#/${hash}`);
    await page.waitForSelector(`main[data-page="${page_}"]`);
  }
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });

  it('Briefing shows the newest briefing with its headline as the page title, and the day before', async () => {
    await open('briefing', 'briefing');
    expect(await page.title()).toBe('Sync race fixed; release day undecided');
    expect(await page.textContent('main')).toContain('Needs review: 2 entries');
    // Formatted, not raw markdown: sections as headings, items as a list, marks as elements.
    expect(await page.locator('#briefing-body h3').allTextContents()).toEqual(['New knowledge', 'Warnings']);
    expect(await page.locator('#briefing-body li').count()).toBe(3);
    expect(await page.textContent('#briefing-body strong')).toBe('Ana');
    expect(await page.textContent('#briefing-body code')).toBe('squash');
    expect(await page.textContent('#briefing-body')).not.toContain('##');
    // Memory text is never parsed as HTML.
    expect(await page.locator('#briefing-body img').count()).toBe(0);
    expect(await page.textContent('#briefing-body')).toContain('<img src=x onerror="document.title=1"> stays text');
    await shot('briefing');
    await page.click('text=previous day');
    await page.waitForFunction(() => document.title === 'Staging moved to port 6543');
  });

  it('Knowledge lists entries and the review queue; approve and reject change the status in the database', async () => {
    await open('knowledge', 'knowledge');
    expect(await page.textContent('#knowledge-list')).toContain('Ana prefers short answers');
    expect(await page.locator('#review-queue tr[data-id]').count()).toBe(2);
    await shot('knowledge');
    await page.click(`#review-queue tr[data-id="k${ids.approve}"] button:has-text("Approve")`);
    await page.waitForFunction(() => document.querySelectorAll('#review-queue tr[data-id]').length === 1);
    await page.click(`#review-queue tr[data-id="k${ids.reject}"] button:has-text("Reject")`);
    await page.waitForSelector('text=Nothing needs review');
    expect((await appContextOf(mem.memory).store.forSpace('default').knowledge.get(ids.approve))?.status).toBe('reliable');
    expect((await appContextOf(mem.memory).store.forSpace('default').knowledge.get(ids.reject))?.status).toBe('forgotten');
    await page.selectOption('select[name=status]', 'forgotten');
    await page.waitForFunction(() => location.hash.includes('status=forgotten') && document.querySelector('#knowledge-list')?.textContent?.includes('Fridays'));
  });

  it('Map draws topic clusters and the attention heatmap, with never-lit clusters', async () => {
    await open('map', 'map');
    // Chart.js draws on a canvas; its fallback content is the data table, which is what text and screen readers get.
    expect(await page.textContent('#topics canvas')).toContain('sync race');
    expect(await page.textContent('#heatmap canvas')).toContain('release train');
    expect(await page.textContent('#heatmap')).toContain('never lit');
    expect(await page.textContent('#sources canvas')).toMatch(/recall|search/);
    // The charts really drew: each canvas has a size and some non-blank pixels.
    const drawn = await page.$$eval('main canvas', (cs) => (cs as HTMLCanvasElement[]).map((c) => c.width > 0 && c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data.some((v) => v !== 0)));
    expect(drawn).toEqual([true, true, true]);
    await shot('map');
  });

  it('Graph draws the entities with Cytoscape and reacts to a click on a node and in the list', async () => {
    await open('graph', 'graph');
    const graph = await page.evaluate(() => {
      const el = document.querySelector('#graph-canvas') as HTMLElement & { cy: Core };
      const box = el.getBoundingClientRect();
      const ana = el.cy.getElementById('Ana').renderedPosition();
      return { nodes: el.cy.nodes().map((n) => n.id()).sort(), edges: el.cy.edges().length, canvases: el.querySelectorAll('canvas').length, x: box.left + ana.x, y: box.top + ana.y };
    });
    expect(graph).toMatchObject({ nodes: ['Ana', 'Ben', 'Cleo'], edges: 1 });
    expect(graph.canvases).toBeGreaterThan(0);
    expect(await page.locator('#graph-entities button[data-entity]').count()).toBe(3);
    // A real click on the canvas, where the layout put Ana.
    await page.mouse.click(graph.x, graph.y);
    await page.waitForSelector('#graph-detail:has-text("Ben (1)")');
    expect(await page.evaluate(() => (document.querySelector('#graph-canvas') as HTMLElement & { cy: Core }).cy.$(':selected').map((n) => n.id()))).toEqual(['Ana']);
    await shot('graph');
    await page.click('#graph-entities button[data-entity="Cleo"]');
    expect(await page.textContent('#graph-detail')).toContain('Cleo — 1 mention; with nobody');
  });

  it('Timeline pages through the raw history', async () => {
    await open('timeline', 'timeline');
    expect(await page.locator('#timeline tr').count()).toBe(51);
    await shot('timeline');
    await page.click('#older');
    await page.waitForFunction(() => location.hash.includes('offset=50') && (document.querySelector('#timeline')?.textContent ?? '').includes('turn number 0 '));
  });

  it('Knowledge: a row flagged for personal data is kept from Needs review; an entry is edited and another forgotten', async () => {
    const { ids: [mail] } = (await mem.memory.record({ content: 'Mail the report to ana.berg@example.com', session: 'mail' })) as { ids: string[] };
    await appContextOf(mem.memory).store.forSpace('default').state.put(PII_REVIEW_KEY, [{ ref: mail, kinds: ['email'], at: T0 }], T0);
    await open('knowledge', 'knowledge');
    expect(await page.textContent(`#review-queue tr[data-id="${mail}"]`)).toContain('an e-mail address in clear');
    await page.click(`#review-queue tr[data-id="${mail}"] button:has-text("Keep")`);
    await page.waitForSelector('text=Nothing needs review');
    expect(await appContextOf(mem.memory).store.forSpace('default').episodes.get(Number(mail!.slice(1)))).toBeDefined();
    await page.click(`#knowledge-list tr[data-id="k${ids.edit}"] button:has-text("Edit")`);
    await page.fill(`#knowledge-list tr[data-id="k${ids.edit}"] textarea`, 'The nightly export runs at 03:00');
    await page.click(`#knowledge-list tr[data-id="k${ids.edit}"] button:has-text("Save")`);
    await page.waitForFunction(() => (document.querySelector('#knowledge-list')?.textContent ?? '').includes('runs at 03:00'));
    const store = appContextOf(mem.memory).store;
    expect((await store.forSpace('default').knowledge.get(ids.edit))?.status).toBe('superseded');
    const [edited] = await store.forSpace('default').knowledge.list({ statuses: ['provisional'], limit: 100 }).then((l) => l.filter((k) => k.content.includes('03:00')));
    expect(edited).toBeDefined();
    page.once('dialog', (d) => void d.accept());
    await page.click(`#knowledge-list tr[data-id="k${ids.forget}"] button:has-text("Forget")`);
    await page.waitForFunction((id) => !document.querySelector(`#knowledge-list tr[data-id="k${id}"]`), ids.forget);
    expect(await store.forSpace('default').knowledge.get(ids.forget)).toBeUndefined();
    await shot('knowledge-edit');
  });

  it('Timeline filters by session and day, and shows who said it', async () => {
    await open('timeline?session=s2', 'timeline');
    expect(await page.locator('#timeline tr[data-id]').count()).toBe(2);
    expect(await page.locator('#timeline td.speaker').allTextContents()).toEqual(['assistant', 'Cleo']);
    await page.fill('#timeline-filter input[name=session]', '');
    await page.fill('#timeline-filter input[name=day]', '2026-10-31');
    await page.click('#timeline-filter button');
    await page.waitForFunction(() => location.hash.includes('day=2026-10-31') && !location.hash.includes('session='));
    await page.waitForSelector('main .empty');
    expect(await page.textContent('main .empty')).toContain('on 2026-10-31');
  });

  it('Search: a hit opens in its conversation, the turns of its session around it', async () => {
    await open('search?q=turn%20number%2030', 'search');
    const hit = page.locator('#hits tr[data-id^="e"]').first();
    const id = await hit.getAttribute('data-id');
    await hit.locator('a').click();
    await page.waitForSelector('main[data-page="conversation"] #conversation');
    expect(await page.getAttribute('#conversation tr.focus', 'data-id')).toBe(id);
    expect(await page.textContent('#conversation tr.focus')).toContain('turn number 30 ');
    // Eight turns before and after it, in time order.
    expect(await page.locator('#conversation tr[data-id]').count()).toBe(17);
    const rows = await page.locator('#conversation tr[data-id] td:nth-child(3)').allTextContents();
    expect(rows[0]).toContain('turn number 22 ');
    expect(rows[16]).toContain('turn number 38 ');
    await shot('conversation');
  });

  it('Journal: a registered workspace\'s day is read as formatted text', async () => {
    await open(`journal?root=${encodeURIComponent(ws)}`, 'journal');
    await page.waitForSelector('#journal-day');
    expect(await page.locator('#journal-days a').allTextContents()).toContain('2026-11-01');
    expect(await page.textContent('#journal-day strong')).toBe('race');
    expect(await page.locator('#journal-day li').allTextContents()).toEqual(['added a lock', 'wrote a test']);
    await shot('journal');
  });

  it('Search recalls with layer filters', async () => {
    await open('search', 'search');
    await page.fill('input[name=q]', 'staging database');
    await page.click('button:has-text("Search")');
    await page.waitForSelector('#hits');
    expect(await page.textContent('#hits')).toContain('6543');
    await shot('search');
    await page.goto(`${http.url}/#/search?q=staging%20database&layers=narrative`);
    await page.waitForFunction(() => !(document.querySelector('main')?.textContent ?? '').includes('6543') && location.hash.includes('narrative'));
  });

  it('Journal settings save writes .tide.json and restore defaults resets it', async () => {
    await open(`settings?root=${encodeURIComponent(ws)}`, 'settings');
    await page.waitForSelector('#tide-config');
    await page.fill('input[name=hotKeepDays]', '12');
    await page.uncheck('input[name=agentsHint]');
    await page.click('button:has-text("Save")');
    await page.waitForSelector('#settings-status:has-text("Saved.")');
    const file = join(ws, 'memory', '.tide.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ hotKeepDays: 12, agentsHint: false });
    await shot('settings');
    await page.click('#reset');
    await expect.poll(() => JSON.parse(readFileSync(file, 'utf8')).hotKeepDays).toBe(7);
  });

  it('logs no error and no CSP violation in the browser console on any page', () => {
    expect(problems).toEqual([]);
  });

  it('renders every page on an empty memory with an explanation instead of an error', async () => {
    const empty = await tempMemory();
    const h = await startHttpServer(empty.memory, { host: '127.0.0.1', port: 0 });
    try {
      for (const p of ['briefing', 'knowledge', 'map', 'graph', 'timeline', 'conversation', 'search', 'journal', 'settings']) {
        await page.goto(`${h.url}/#/${p}`);
        await page.waitForSelector(`main[data-page="${p}"]`);
        expect(await page.locator('main .error').count()).toBe(0);
        expect(await page.locator('main .empty').count()).toBeGreaterThan(0);
      }
      // The real reason, not advice to run what was just run.
      await page.goto(`${h.url}/#/knowledge`);
      await page.waitForSelector('main[data-page="knowledge"]');
      expect(await page.textContent('main')).toContain('Nothing imported yet');
      await empty.memory.record({ turns: [{ role: 'user', content: 'imported, not slept on', session: 'x', at: T0 - 3_600_000 }] });
      await page.goto(`${h.url}/#/map`);
      await page.waitForSelector('main[data-page="map"]');
      expect(await page.textContent('main')).toContain('1 episodes stored, but no night has run yet');
    } finally {
      await h.close();
      await empty.cleanup();
    }
  });
});
