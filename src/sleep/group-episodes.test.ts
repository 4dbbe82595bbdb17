import { describe, expect, it } from 'vitest';
import { groupEpisodes, type GroupItem } from './group-episodes.js';

const MIN = 60_000;
const item = (id: number, text: string, at: number, session: string | null = null, cost = 10): GroupItem => ({
  id,
  text,
  session,
  at,
  cost,
});

describe('groupEpisodes', () => {
  it('keeps episodes about one thing together and apart from another topic, packing whole groups in time order', () => {
    const items = [
      item(1, 'the release branch freezes on Thursday', 0),
      item(2, 'flaky login tests in the integration suite', 1 * MIN),
      item(3, 'release branch freeze moved to Thursday evening', 2 * MIN),
      item(4, 'login tests flaky again in the integration run', 3 * MIN),
    ];
    expect(groupEpisodes(items, { maxCost: 20 })).toEqual([
      [1, 3],
      [2, 4],
    ]);
    // With room for everything, the two groups share one packet but stay side by side.
    expect(groupEpisodes(items, { maxCost: 1_000 })).toEqual([[1, 3, 2, 4]]);
  });

  it('lets a turn of the same conversation join its group on fewer shared words (packet order shows the groups)', () => {
    const a = item(1, 'we should migrate the billing tables first', 0, 's');
    const other = item(2, 'lunch order for the team offsite', 1 * MIN, 'x');
    // One content word of three shared (33 %) is below the 34 % join, but the same session within 30 minutes adds 0.15.
    const sameTalk = item(3, 'the billing invoices after that', 5 * MIN, 's');
    expect(groupEpisodes([a, other, sameTalk], { maxCost: 1_000 })).toEqual([[1, 3, 2]]);
    const elsewhere = item(3, 'the billing invoices after that', 5 * MIN, 'y');
    expect(groupEpisodes([a, other, elsewhere], { maxCost: 1_000 })).toEqual([[1, 2, 3]]);
    const later = item(3, 'the billing invoices after that', 45 * MIN, 's');
    expect(groupEpisodes([a, other, later], { maxCost: 1_000 })).toEqual([[1, 2, 3]]);
  });

  it('never puts more than the cost cap into one packet and loses no episode', () => {
    const items = Array.from({ length: 25 }, (_, i) =>
      item(i + 1, 'same topic every time', i * MIN, 's', 10),
    );
    const packets = groupEpisodes(items, { maxCost: 100 });
    expect(packets.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(packets.flat().sort((a, b) => a - b)).toEqual(items.map((i) => i.id));
  });
});
