/** Personal data stored in clear, found deterministically and flagged for review (never hidden silently, never shown). */

import { findPii } from '../script/pii-scan.js';
import type { NightLog } from '../script/briefing-render.js';

/** The kinds the night flags by pattern; names are the memory's own business unless the watch reports one. */
const FLAGGED = new Set(['email', 'phone', 'iban', 'card', 'address']);

/**
 * One flag per text that holds an e-mail address, phone number, IBAN, card number or postal address (the detectors
 * of `src/script/pii-scan.ts`), with the kinds found and never the values.
 */
export function piiFlagsOf(texts: ReadonlyArray<{ ref: string; text: string }>): NightLog['piiFlags'] {
  const out: NightLog['piiFlags'] = [];
  for (const { ref, text } of texts) {
    const kinds = [...new Set(findPii(text).map((f) => f.kind as string))].filter((k) => FLAGGED.has(k));
    if (kinds.length > 0) out.push({ ref, kinds });
  }
  return out;
}
