import { describe, expect, it } from 'vitest';
import { parseLocomo } from '../locomo.js';
import { parseSessionDate } from '../../script/import-formats/session-date.js';
import { FACTS, FILLERS, SLOTS } from './parallel-banks.js';
import { generateParallelCorpus, sessionDateText } from './parallel-corpus.js';
import type { LocomoSampleJson, LocomoTurnJson } from './parallel-corpus.js';

const small = { seed: 7, conversations: 2, sessions: [5, 6] as const, turns: [12, 16] as const };

function sessionKeys(s: LocomoSampleJson): string[] {
  return Object.keys(s.conversation).filter((k) => /^session_\d+$/u.test(k));
}

function turnsOf(s: LocomoSampleJson, key: string): readonly LocomoTurnJson[] {
  return s.conversation[key] as readonly LocomoTurnJson[];
}

describe('generateParallelCorpus', () => {
  it('is deterministic per seed and differs across seeds', () => {
    expect(JSON.stringify(generateParallelCorpus(small))).toBe(JSON.stringify(generateParallelCorpus(small)));
    expect(JSON.stringify(generateParallelCorpus({ ...small, seed: 8 }))).not.toBe(JSON.stringify(generateParallelCorpus(small)));
  });

  it('gives both languages the same structure: ids, sessions, turns, speakers by position, evidence, categories', () => {
    const { en, zh } = generateParallelCorpus(small);
    expect(en).toHaveLength(2);
    expect(zh.map((s) => s.sample_id)).toEqual(en.map((s) => s.sample_id));
    en.forEach((e, i) => {
      const z = zh[i]!;
      expect(sessionKeys(z)).toEqual(sessionKeys(e));
      const who = (s: LocomoSampleJson, name: string): string => (name === s.conversation.speaker_a ? 'a' : 'b');
      for (const key of sessionKeys(e)) {
        const et = turnsOf(e, key);
        const zt = turnsOf(z, key);
        expect(zt.map((t) => t.dia_id)).toEqual(et.map((t) => t.dia_id));
        expect(zt.map((t) => who(z, t.speaker))).toEqual(et.map((t) => who(e, t.speaker)));
        expect(zt.every((t) => /[\u4e00-\u9fff]/u.test(t.text))).toBe(true);
        expect(et.every((t) => !/[\u4e00-\u9fff]/u.test(t.text))).toBe(true);
      }
      expect(z.qa.map((q) => [q.category, q.evidence])).toEqual(e.qa.map((q) => [q.category, q.evidence]));
    });
    expect(new Set(en.flatMap((s) => s.qa.map((q) => q.category)))).toEqual(new Set([1, 2, 4]));
  });

  it('writes session dates both parsers read to the same instant', () => {
    const at = Date.UTC(2023, 4, 8, 13, 56);
    expect(sessionDateText(at)).toEqual(['1:56 pm on 8 May, 2023', '2023年5月8日 下午1:56']);
    for (const ms of [Date.UTC(2023, 0, 1, 0, 5), Date.UTC(2023, 0, 1, 12, 0), Date.UTC(2023, 0, 1, 9, 30), Date.UTC(2023, 0, 1, 21, 7)]) {
      const [en, zh] = sessionDateText(ms);
      expect([parseSessionDate(en), parseSessionDate(zh)]).toEqual([ms, ms]);
    }
  });

  it('produces a Chinese file parseLocomo loads, with parsed dates and every evidence id present', () => {
    const corpus = generateParallelCorpus(small);
    const en = parseLocomo(corpus.en);
    const zh = parseLocomo(corpus.zh);
    expect(zh.conversations.map((c) => c.sessions.map((s) => s.at))).toEqual(en.conversations.map((c) => c.sessions.map((s) => s.at)));
    expect(zh.conversations[0]?.speakers.every((s) => /^[\u4e00-\u9fff]{2}$/u.test(s))).toBe(true);
    for (const data of [en, zh]) {
      const ids = new Map(data.conversations.map((c) => [c.id, new Set(c.sessions.flatMap((s) => s.turns.map((t) => t.diaId)))]));
      expect(data.questions.length).toBeGreaterThan(0);
      for (const q of data.questions) {
        expect(q.evidence.length).toBeGreaterThan(0);
        for (const id of q.evidence) expect(ids.get(q.convId)?.has(id), `${q.question} → ${id}`).toBe(true);
      }
      // Multi-hop questions gather evidence from at least two sessions.
      for (const q of data.questions.filter((x) => x.category === 1)) {
        expect(new Set(q.evidence.map((id) => id.split(':')[0])).size).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it('has the promised banks: 40+ fact templates, 60+ fillers, parallel slot values', () => {
    expect(FACTS.length).toBeGreaterThanOrEqual(40);
    expect(FILLERS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(FACTS.map((f) => f.id)).size).toBe(FACTS.length);
    for (const f of FACTS) expect(Boolean(f.when), f.id).toBe(f.say[0].includes('{T}') && f.say[1].includes('{T}'));
    for (const values of Object.values(SLOTS)) for (const v of values) expect(v.en !== '' && /[\u4e00-\u9fff]/u.test(v.zh)).toBe(true);
  });
});
