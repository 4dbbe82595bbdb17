import { describe, expect, it } from 'vitest';
import { detectGaps, linkDegrees } from './gap-detection.js';

describe('detectGaps', () => {
  it('lists topics mentioned at least 3 times with at most 1 link, most mentioned first', () => {
    const gaps = detectGaps([
      { topic: 'kubernetes', mentions: 3, degree: 1 },
      { topic: 'postgres', mentions: 9, degree: 0 },
      { topic: 'release', mentions: 12, degree: 2 },
      { topic: 'vim', mentions: 2, degree: 0 },
      { topic: 'billing', mentions: 9, degree: 1 },
    ]);
    expect(gaps.map((g) => g.topic)).toEqual(['postgres', 'billing', 'kubernetes']);
  });

  it('takes thresholds and a limit from the options', () => {
    const stats = Array.from({ length: 20 }, (_, i) => ({
      topic: `t${String(i).padStart(2, '0')}`,
      mentions: 5,
      degree: 3,
    }));
    expect(detectGaps(stats)).toEqual([]);
    expect(detectGaps(stats, { maxDegree: 3, limit: 2 }).map((g) => g.topic)).toEqual(['t00', 't01']);
    expect(detectGaps(stats, { maxDegree: 3 })).toHaveLength(10);
  });
});

describe('linkDegrees', () => {
  it('counts both ends of each link, a self-link once', () => {
    const d = linkDegrees([
      { from: 1, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 3 },
    ]);
    expect([...d]).toEqual([
      [1, 1],
      [2, 2],
      [3, 2],
    ]);
  });
});
