// withinTokens gives countTokens' answer, and a short text never loads the tokenizer (its tables cost ~0.35 s of a
// prompt hook that injects; checked in a fresh process, where nothing else has loaded it).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countTokens, withinTokens } from './token-count.js';

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
        console.log(JSON.stringify({ fits, loaded: Object.keys((await import('node:module')).createRequire(import.meta.url).cache).some((k) => k.includes('gpt-tokenizer')) }));`;
      return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }).trim()) as never;
    };
    expect(loads('- The staging database moved to port 6543 (fact, today)', 1200)).toEqual({ fits: true, loaded: false });
    expect(loads('staging '.repeat(200), 1200)).toEqual({ fits: true, loaded: true });
    expect(loads('staging '.repeat(200), 100)).toEqual({ fits: false, loaded: true });
  }, 60_000);
});
