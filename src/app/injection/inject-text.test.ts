import { describe, expect, it } from 'vitest';
import { clipAtBoundary, stripBracketTags } from './inject-text.js';

describe('injected text hygiene', () => {
  it("strips Tideline's bracket tags, case-insensitively, and keeps other brackets", () => {
    expect(stripBracketTags('[gesture: soft] I fixed it [SELF_REFLECTION] [see #12]')).toBe('I fixed it [see #12]');
  });

  it('keeps text within the limit unchanged', () => {
    expect(clipAtBoundary('Short enough.', 20)).toBe('Short enough.');
  });

  it('cuts at the last sentence end inside the limit, without an ellipsis', () => {
    expect(clipAtBoundary('First sentence here. Second one runs on and on.', 30)).toBe('First sentence here.');
    expect(clipAtBoundary('用户爱喝咖啡。每天早上都喝两杯，从不加糖也不加奶。', 12)).toBe('用户爱喝咖啡。');
  });

  it('falls back to a word boundary with an ellipsis, and never exceeds the limit', () => {
    const out = clipAtBoundary('one two three four five six seven eight nine ten', 20);
    expect(out).toBe('one two three four…');
    expect([...out].length).toBeLessThanOrEqual(20);
  });
});
