/** Personal data stored in clear, found deterministically and flagged for review (never hidden silently, never shown). */

import { findPii } from '../script/pii-scan.js';
import type { NightLog } from '../script/briefing-render.js';
import type { Store } from '../store/port.js';

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

/** Where the flags wait for a person's verdict (`job_state`): the PII half of Needs review (app/review.ts). */
export const PII_REVIEW_KEY = 'review:pii';

/** One row flagged for personal data in clear, waiting in Needs review since `at`. */
export interface PiiReviewFlag {
  ref: string;
  kinds: string[];
  at: number;
}

/** The flags waiting for review, oldest first (a malformed state reads as none). */
export async function pendingPiiFlags(store: Store, space: string): Promise<PiiReviewFlag[]> {
  const v = await store.forSpace(space).state.get(PII_REVIEW_KEY);
  if (!Array.isArray(v)) return [];
  return v.filter(
    (f): f is PiiReviewFlag =>
      typeof f === 'object' && f !== null && typeof f.ref === 'string' && Array.isArray(f.kinds) && typeof f.at === 'number',
  );
}

/**
 * Adds tonight's flags to the review queue inside the night's transaction: a row already waiting gains the new kinds,
 * so one row is one item however many nights saw it.
 */
export async function queuePiiFlags(
  tx: Store,
  space: string,
  flags: NightLog['piiFlags'],
  at: number,
): Promise<void> {
  if (flags.length === 0) return;
  const queue = await pendingPiiFlags(tx, space);
  for (const f of flags) {
    const same = queue.find((q) => q.ref === f.ref);
    if (same) same.kinds = [...new Set([...same.kinds, ...f.kinds])];
    else queue.push({ ref: f.ref, kinds: [...f.kinds], at });
  }
  await tx.forSpace(space).state.put(PII_REVIEW_KEY, queue, at);
}

/** Removes `ref` from the queue (a person decided on it, or the row is gone). */
export async function dropPiiFlag(tx: Store, space: string, refs: readonly string[], at: number): Promise<void> {
  const queue = await pendingPiiFlags(tx, space);
  const kept = queue.filter((q) => !refs.includes(q.ref));
  if (kept.length !== queue.length) await tx.forSpace(space).state.put(PII_REVIEW_KEY, kept, at);
}
