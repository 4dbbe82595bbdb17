import { describe, expect, it } from 'vitest';
import { createProgressBar } from './progress-bar.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return {
    isTTY,
    writes,
    write: (s: string) => (writes.push(s), true),
  } as unknown as NodeJS.WritableStream & { isTTY: boolean; writes: string[] };
}

describe('createProgressBar', () => {
  it('draws nothing when the stream is not a terminal', () => {
    const s = stream(false);
    const bar = createProgressBar(s);
    bar.update(5, 10, 'f.jsonl');
    bar.finish();
    expect(s.writes).toEqual([]);
  });

  it('redraws one line only when the whole percentage changes, and clears it at the end', () => {
    const s = stream(true);
    const bar = createProgressBar(s);
    for (let i = 0; i <= 1000; i++) bar.update(i, 1000, 'f.jsonl');
    expect(s.writes).toHaveLength(101);
    expect(s.writes[50]).toBe(`\r\u001b[2K${'█'.repeat(12)}${'░'.repeat(12)}  50% 500/1,000 f.jsonl`);
    expect(s.writes[100]).toContain('100% 1,000/1,000');
    bar.finish();
    expect(s.writes.at(-1)).toBe('\r\u001b[2K');
  });
});
