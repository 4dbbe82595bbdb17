import { describe, expect, it } from 'vitest';
import { TokenLedger } from './token-ledger.js';

describe('TokenLedger', () => {
  it('counts tokens per step and per night against the budget', () => {
    const ledger = new TokenLedger(1000);
    ledger.add('solidify', { input: 300, output: 100 });
    ledger.add('librarian', { input: 200, output: 50 });
    ledger.add('solidify', { input: 100, output: 20, cached: 80 });
    expect(ledger.byStep()).toEqual({
      solidify: { input: 400, output: 120, cached: 80, calls: 2 },
      librarian: { input: 200, output: 50, cached: 0, calls: 1 },
    });
    // Cached input is still input: it counts against the budget, and apart.
    expect(ledger.cached()).toBe(80);
    expect(ledger.used()).toBe(770);
    expect(ledger.remaining()).toBe(230);
    expect(ledger.fits(230)).toBe(true);
    expect(ledger.fits(231)).toBe(false);
  });

  it('never reports a negative remainder when a night overspends', () => {
    const ledger = new TokenLedger(100);
    ledger.add('comb', { input: 150, output: 10 });
    expect(ledger.remaining()).toBe(0);
  });
});
