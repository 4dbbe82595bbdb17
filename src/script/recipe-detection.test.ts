import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectRecipes, recipeContent, type ToolEpisode } from './recipe-detection.js';

/** Builds a session's calls from `tool` or `tool!` (failed), one minute apart. */
function session(name: string, ...calls: string[]): ToolEpisode[] {
  return calls.map((c, i) => ({
    session: name,
    tool: c.replace('!', ''),
    ok: !c.endsWith('!'),
    at: i * 60_000,
  }));
}

describe('detectRecipes', () => {
  it('finds a 3-step sequence repeated in 2 sessions, without its sub-sequences', () => {
    const r = detectRecipes([
      ...session('s1', 'search', 'read', 'edit'),
      ...session('s2', 'ls', 'search', 'read', 'edit'),
    ]);
    expect(r).toEqual([
      { tools: ['search', 'read', 'edit'], sessions: ['s1', 's2'], count: 2, key: 'recipe:search>read>edit' },
    ]);
    expect(recipeContent(r[0]!)).toBe('Recipe: search → read → edit (succeeded in 2 sessions)');
  });

  it('needs 2 sessions: repeats inside one session are not a recipe', () => {
    expect(detectRecipes(session('s1', 'a', 'b', 'a', 'b', 'a', 'b'))).toEqual([]);
  });

  it('never spans a failed call', () => {
    expect(detectRecipes([...session('s1', 'a', 'b!', 'c'), ...session('s2', 'a', 'b!', 'c')])).toEqual([]);
    expect(detectRecipes([...session('s1', 'a', 'b', 'c!'), ...session('s2', 'a', 'b', 'c')])).toEqual([
      { tools: ['a', 'b'], sessions: ['s1', 's2'], count: 2, key: 'recipe:a>b' },
    ]);
  });

  it('caps sequences at 4 calls', () => {
    const calls = ['a', 'b', 'c', 'd', 'e'];
    const r = detectRecipes([...session('s1', ...calls), ...session('s2', ...calls)]);
    expect(r.map((x) => x.tools.join(''))).toEqual(['abcd', 'bcde']);
  });

  it('keeps a shorter sequence that also occurs in more sessions than the longer one', () => {
    const r = detectRecipes([
      ...session('s1', 'a', 'b', 'c'),
      ...session('s2', 'a', 'b', 'c'),
      ...session('s3', 'a', 'b', 'x!'),
    ]);
    expect(r.map((x) => [x.tools.join(''), x.sessions.length])).toEqual([
      ['abc', 2],
      ['ab', 3],
    ]);
  });

  it('skips windows that repeat a single tool', () => {
    expect(detectRecipes([...session('s1', 'read', 'read'), ...session('s2', 'read', 'read')])).toEqual([]);
  });

  it('orders calls by time, not by input order', () => {
    const s2 = session('s2', 'a', 'b').reverse();
    expect(detectRecipes([...session('s1', 'a', 'b'), ...s2])).toHaveLength(1);
  });

  it('does not depend on the order episodes arrive in (property)', () => {
    const calls = [
      ...session('s1', 'a', 'b', 'c', 'x!', 'a', 'b'),
      ...session('s2', 'q', 'a', 'b', 'c'),
      ...session('s3', 'b', 'c'),
    ];
    const expected = detectRecipes(calls);
    expect(expected.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.shuffledSubarray(calls, { minLength: calls.length }), (shuffled) => {
        expect(detectRecipes(shuffled)).toEqual(expected);
      }),
      { seed: 5 },
    );
  });
});
