import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTidepoolError } from '../core/errors.js';
import { ANNOTATION_MARKER, tinyLocomo } from './tiny-locomo.js';
import { loadLocomo, normaliseEvidence, parseLocomo } from './locomo.js';
import { parseSessionDate } from '../script/import-formats/session-date.js';

const dir = mkdtempSync(join(tmpdir(), 'tidepool-locomo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadLocomo', () => {
  const file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify(tinyLocomo()));
  const data = loadLocomo(file);

  it('loads sessions in order with UTC timestamps, speakers and captions as text', () => {
    const [en, zh] = data.conversations;
    expect(en?.id).toBe('conv-en');
    expect(en?.speakers).toEqual(['Caroline', 'Melanie']);
    expect(en?.sessions.map((s) => [s.n, s.at])).toEqual([
      [1, Date.UTC(2023, 4, 8, 13, 56)],
      [2, Date.UTC(2024, 1, 1, 0, 48)],
    ]);
    expect(en?.sessions[0]?.turns[2]).toEqual({
      diaId: 'D1:3',
      speaker: 'Caroline',
      text: 'Look at my new shoes! [image: a photo of red running shoes]',
    });
    expect(zh?.sessions[0]?.at).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(zh?.sessions[0]?.turns[0]?.text).toBe('我昨天在北京喝了很好的咖啡。');
  });

  it('trims stray spaces, splits a joined id and keeps a missing id in the evidence', () => {
    const en = data.questions.filter((q) => q.convId === 'conv-en');
    expect(en.map((q) => q.evidence)).toEqual([['D1:1'], ['D1:2', 'D2:1'], ['D2:2', 'D9:9'], ['D1:3'], ['D2:2']]);
    expect(en.map((q) => q.category)).toEqual([2, 1, 4, 3, 5]);
  });

  it('never carries the observation or summary annotations', () => {
    expect(JSON.stringify(data)).not.toContain(ANNOTATION_MARKER);
  });

  it('rejects a file that is not LoCoMo-shaped and a session without a readable date', () => {
    const bad = (json: unknown): unknown => {
      try {
        parseLocomo(json);
        return 'parsed';
      } catch (e) {
        return isTidepoolError(e, 'invalid_input') ? (e.field ?? 'invalid_input') : e;
      }
    };
    expect(bad({ conversation: {} })).toBe('invalid_input');
    expect(() => loadLocomo(join(dir, 'absent.json'))).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(bad([{ sample_id: 'x', conversation: { session_1: [], session_1_date_time: 'someday' }, qa: [] }])).toBe(
      'x.session_1_date_time',
    );
  });
});

describe('normaliseEvidence', () => {
  it('handles missing, single-string and comma-joined evidence', () => {
    expect(normaliseEvidence(undefined)).toEqual([]);
    expect(normaliseEvidence('D1:1')).toEqual(['D1:1']);
    expect(normaliseEvidence(['D1:1, D1:2', ' D1:1', ''])).toEqual(['D1:1', 'D1:2']);
  });
});

describe('parseSessionDate', () => {
  it.each([
    ['1:56 pm on 8 May, 2023', Date.UTC(2023, 4, 8, 13, 56)],
    ['12:48 am on 1 February, 2023', Date.UTC(2023, 1, 1, 0, 48)],
    ['12:05 pm on 3 Sept, 2022', Date.UTC(2022, 8, 3, 12, 5)],
    ['2023年5月8日 下午1:56', Date.UTC(2023, 4, 8, 13, 56)],
    ['2023年5月8日 09:30', Date.UTC(2023, 4, 8, 9, 30)],
    ['May 8, 2023 at 4:04 pm', Date.UTC(2023, 4, 8, 16, 4)],
    ['2023-05-08 07:15', Date.UTC(2023, 4, 8, 7, 15)],
    ['2023-05-08T07:15:00+02:00', Date.UTC(2023, 4, 8, 5, 15)],
  ])('reads %s', (text, ms) => {
    expect(parseSessionDate(text)).toBe(ms);
  });

  it('rejects dates that do not exist or cannot be found', () => {
    expect(parseSessionDate('1:00 pm on 31 June, 2023')).toBeUndefined();
    expect(parseSessionDate('some afternoon')).toBeUndefined();
  });
});
