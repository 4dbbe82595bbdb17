/** The sleep commands through the built binary: sleep, briefing, review, self, gaps, and the timeline's archive cap. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { startMockOpenAiServer, type MockLlmServer } from './mock-llm-servers.js';

const DAY = 86_400_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidepool-sleep-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(db: string, env: Record<string, string> = {}) {
  return (...args: string[]) => runCli([...args, '--db', join(dir, db)], { env });
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('tidepool sleep and briefing', () => {
  it('sleeps with model none as of a later time and shows the briefing of that day with the exact headline', async () => {
    const tp = cli('none.db');
    const turns = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ content: `turn ${i}: release plan`, session: 's' }),
    ).join('\n');
    expect((await runCli(['record', '--db', join(dir, 'none.db')], { stdin: turns })).code).toBe(0);
    const later = Date.now() + 2 * DAY;
    const day = iso(later).slice(0, 10);
    const night = await tp('sleep', '--model', 'none', '--now', iso(later), '--json');
    expect(night.code).toBe(0);
    expect(JSON.parse(night.stdout)).toMatchObject({
      kind: 'slept',
      day,
      headline: 'While you were away: 0 new, 0 reinforced, 0 forgotten from 10 episodes.',
    });
    const b = await tp('briefing', '--date', day, '--json');
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({
      day,
      headline: 'While you were away: 0 new, 0 reinforced, 0 forgotten from 10 episodes.',
      sections: { agent: { warnings: ['No model is configured: only the deterministic steps ran.'] } },
    });
    expect((await tp('briefing')).stdout).toContain(`# Briefing ${day}`);
    const missing = await tp('briefing', '--date', '2001-01-01');
    expect([missing.code, missing.stderr]).toEqual([
      3,
      expect.stringContaining(`no briefing for 2001-01-01; the newest is from ${day}`),
    ]);
    const again = await tp('sleep', '--model', 'none', '--now', iso(later + DAY));
    expect([again.code, again.stdout.trim()]).toEqual([
      0,
      'nothing to consolidate: no episode older than 30 minutes is waiting',
    ]);
  });

  it('dry-runs without changing anything, and refuses models that need a live MCP connection', async () => {
    const tp = cli('dry.db');
    expect((await tp('record', 'one turn to think about')).code).toBe(0);
    const dry = await tp(
      'sleep',
      '--model',
      'none',
      '--dry-run',
      '--force',
      '--now',
      iso(Date.now() + DAY),
      '--json',
    );
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      kind: 'dry_run',
      units: expect.arrayContaining([{ step: 'consume', unit: '0001', proposals: { consolidate: 1, narratives: [], repeated: [] } }]),
    });
    expect(JSON.parse((await tp('briefing', '--json')).stdout)).toMatchObject({ kind: 'none' });
    const sampling = await tp('sleep', '--model', 'sampling');
    expect([sampling.code, sampling.stderr]).toEqual([
      2,
      expect.stringContaining('needs a connected MCP client'),
    ]);
    const agent = await tp('sleep', '--model', 'agent');
    expect([agent.code, agent.stderr]).toEqual([
      2,
      expect.stringContaining('works only under `tidepool serve`'),
    ]);
  });
});

describe('tidepool review', () => {
  let mock: MockLlmServer;
  beforeAll(async () => {
    mock = await startMockOpenAiServer();
  });
  afterAll(async () => mock.close());

  it('lists knowledge quarantined by a night and approves it, replacing the reliable entry it contradicted', async () => {
    const tp = cli('review.db', { TIDEPOOL_OPENAI_BASE_URL: mock.url });
    for (let i = 0; i < 3; i++)
      expect((await tp('remember', 'The office is in Berlin', '--key', 'office.city')).code).toBe(0);
    // Three occurrences and eight days make it reliable; the night runs the lifecycle with model none.
    expect((await tp('sleep', '--model', 'none', '--force', '--now', iso(Date.now() + 8 * DAY))).code).toBe(
      0,
    );
    expect((await tp('record', 'The office is in Hamburg now, we moved last week')).code).toBe(0);
    mock.push(
      JSON.stringify({
        proposals: [
          { op: 'supersede', old: 'k1', kind: 'fact', content: 'The office is in Hamburg', evidence: ['e2'] },
        ],
      }),
      '{"names":[]}',
    );
    const night = await tp(
      'sleep',
      '--model',
      'openai:gpt-test',
      '--force',
      '--now',
      iso(Date.now() + 9 * DAY),
      '--json',
    );
    expect(night.code).toBe(0);
    expect(JSON.parse(night.stdout).log.quarantined).toHaveLength(1);
    const list = JSON.parse((await tp('review', '--json')).stdout) as {
      items: Array<{ id: string; content: string; against: { id: string } }>;
    };
    expect(list.items).toEqual([
      expect.objectContaining({
        id: 'k2',
        content: 'The office is in Hamburg',
        against: expect.objectContaining({ id: 'k1' }),
      }),
    ]);
    expect((await tp('review', 'k2')).code).toBe(2);
    const ok = await tp('review', 'k2', '--approve');
    expect([ok.code, ok.stdout.trim()]).toEqual([0, 'k2 approved: now reliable, replaces k1']);
    expect((await tp('review')).stdout.trim()).toBe('nothing needs review');
    const again = await tp('review', 'k2', '--reject');
    expect([again.code, again.stderr]).toEqual([
      5,
      expect.stringContaining('k2 is reliable, not waiting for review'),
    ]);
  });
});

describe('tidepool self, gaps and the archive cap of timeline', () => {
  it('explains an empty self-image and gap list, and refuses an archive range over 62 days', async () => {
    const tp = cli('misc.db');
    expect((await tp('remember', 'Something to know')).code).toBe(0);
    const self = JSON.parse((await tp('self', '--json')).stdout) as { message: string; image: unknown };
    expect(self).toMatchObject({
      image: null,
      message: expect.stringContaining('at least 5 knowledge entries'),
    });
    expect(JSON.parse((await tp('gaps', '--json')).stdout)).toMatchObject({ gaps: [] });
    const t = await tp('timeline', '--from', '2020-01-01', '--to', '2020-06-01');
    expect([t.code, t.stderr]).toEqual([
      2,
      // --to 2020-06-01 includes that day: 1 January to the end of 1 June.
      expect.stringContaining('may span at most 62 days, this one spans 153'),
    ]);
    expect((await tp('timeline', '--from', '2020-01-01', '--to', '2020-03-01', '--json')).code).toBe(0);
  });
});
