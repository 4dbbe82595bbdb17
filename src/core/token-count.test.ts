// withinTokens gives countTokens' answer; tokensAtMost never counts less than the tokenizer, over texts of every kind;
// and a text within its budget by that bound never loads the tokenizer (its tables cost ~0.3 s of a prompt hook
// that injects; checked in a fresh process, where nothing else has loaded it).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRng } from '../script/seeded-rng.js';
import { countTokens, tokensAtMost, withinTokens } from './token-count.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const TEXTS = [
  '',
  'a',
  '- The staging database moved to port 6543 (fact, today)',
  '## Related memories (auto-recalled)\n- Mara prefers short release notes (preference, 3 days ago)',
  '我们昨天讨论了仓库屋顶漏水的问题，决定下周请人来修。',
  '𠀀𠀁𠀂 rare ideographs beyond the BMP, and emoji 👩‍👩‍👧‍👦🏳️‍🌈',
  'Ünïcödé wïth dïäcrïtïcs, ελληνικά, русский, العربية, हिन्दी',
  ' \t\n  spaces\n\n\nand\r\nnewlines  ',
  'x'.repeat(5000),
  '🙂'.repeat(300),
  '<|endoftext|> looks like a special token',
  Array.from({ length: 400 }, (_, i) => `w${(i * 7919) % 1000}`).join(' '),
];

describe('withinTokens', () => {
  it('answers as countTokens(text) <= max, at and around every text count and byte length', () => {
    for (const text of TEXTS) {
      const tokens = countTokens(text);
      const bytes = Buffer.byteLength(text, 'utf8');
      // The bound it rests on: no token stands for less than a byte.
      expect(tokens).toBeLessThanOrEqual(bytes);
      for (const max of [0, 1, tokens - 1, tokens, tokens + 1, bytes - 1, bytes, bytes + 1]) {
        if (max < 0) continue;
        expect(withinTokens(text, max), `${JSON.stringify(text.slice(0, 30))} at ${max}`).toBe(tokens <= max);
      }
    }
  });

  it('does not load the tokenizer for a text within the budget in bytes, and loads it for a longer one', () => {
    const loads = (text: string, max: number) => {
      const code = `const { withinTokens } = await import('./src/core/token-count.ts');
        const fits = withinTokens(${JSON.stringify(text)}, ${max});
        const cache = Object.keys((await import('node:module')).createRequire(import.meta.url).cache);
        console.log(JSON.stringify({ fits, loaded: cache.some((k) => k.includes('gpt-tokenizer') && k.includes('bpeRanks')) }));`;
      return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }).trim()) as never;
    };
    expect(loads('- The staging database moved to port 6543 (fact, today)', 1200)).toEqual({ fits: true, loaded: false });
    // 1,625 bytes of common words: within 1,200 by their pieces, no tokenizer.
    expect(loads('the database '.repeat(125), 1200)).toEqual({ fits: true, loaded: false });
    expect(loads('the database '.repeat(125), 100)).toEqual({ fits: false, loaded: true });
    // Pieces that are no common token count as their bytes: 1,500 bytes of made-up words need the tokenizer.
    expect(loads('qzxv '.repeat(300), 1200)).toEqual({ fits: true, loaded: true });
  }, 60_000);
});

/** Texts of every kind the bound must hold for: words, names, numbers, code, punctuation, CJK, emoji, odd spacing. */
function corpus(n: number): string[] {
  const rng = createRng(20);
  const parts = [
    () => ['the', 'staging', 'database', 'moved', 'Mara', 'prefers', 'release', 'notes', "don't", "it's", 'I', 'A', 'Ünïcödé', 'naïve'][rng.between(0, 13)]!,
    () => String(rng.between(0, 10 ** rng.between(1, 9))),
    () => Array.from({ length: rng.between(1, 12) }, () => String.fromCharCode(rng.between(33, 126))).join(''),
    () => Array.from({ length: rng.between(1, 10) }, () => 'abcdefghijklmnopqrstuvwxyzQXZ'[rng.between(0, 28)]).join(''),
    () => ['我们昨天讨论了', '仓库屋顶', '漏水', '咖啡', '杭州', '𠀀𠀁', 'ελληνικά', 'русский', 'العربية', 'हिन्दी'][rng.between(0, 9)]!,
    () => ['👩‍👩‍👧‍👦', '🏳️‍🌈', '🙂', '<|endoftext|>', '```', '=>', '...', '—', '(fact, today)'][rng.between(0, 8)]!,
    () => [' ', '  ', '\n', '\n\n', '\t', '\r\n', ' \n ', '\u00a0'][rng.between(0, 7)]!,
  ];
  return Array.from({ length: n }, () => {
    let t = '';
    for (let i = rng.between(1, 60); i > 0; i--) t += `${parts[rng.between(0, parts.length - 1)]!()}${rng.chance(0.7) ? ' ' : ''}`;
    return t;
  });
}

describe('tokensAtMost', () => {
  it('never counts fewer tokens than the tokenizer, nor more than the bytes', () => {
    for (const text of [...TEXTS, ...corpus(3000)]) {
      const tokens = countTokens(text);
      const bound = tokensAtMost(text, 0);
      expect(bound, JSON.stringify(text.slice(0, 60))).toBeGreaterThanOrEqual(tokens);
      expect(bound).toBeLessThanOrEqual(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('bounds a prompt hook\'s English block near its tokens, its bytes when they are enough', () => {
    const block = `## Related memories (auto-recalled)\n${Array.from({ length: 14 }, (_, i) =>
      `- Mara said the staging database moved to port ${6500 + i} after the release on Friday; she prefers short notes (fact, ${i + 2} days ago)`,
    ).join('\n')}`;
    const bytes = Buffer.byteLength(block, 'utf8');
    expect(bytes).toBeGreaterThan(1200);
    expect(tokensAtMost(block, bytes)).toBe(bytes);
    const bound = tokensAtMost(block, 1200);
    expect(bound).toBeLessThanOrEqual(1200);
    expect(bound).toBeGreaterThanOrEqual(countTokens(block));
    expect(bound).toBeLessThan(bytes / 2);
  });
});
