/** Recall and false-positive rate of a kind detector over a labelled corpus, for tests and the reliability report. */

/** One labelled text: the kinds it contains (repeated when it contains several), `[]` for a near-miss. */
export interface DetectorCase {
  text: string;
  expect: readonly string[];
}

/** Outcome of `measureDetector`; `misses` and `falsePositives` describe each failure for a report. */
export interface DetectorMetrics {
  /** Expected kind occurrences found / all expected kind occurrences (1 when the corpus has no positives). */
  recall: number;
  /** Near-miss texts with any detection / all near-miss texts (0 when the corpus has none). */
  falsePositiveRate: number;
  /** `"<kind> missed in: <text>"` per expected occurrence not detected. */
  misses: string[];
  /** `"<kinds> in: <text>"` per near-miss text that was flagged. */
  falsePositives: string[];
  /** `"<kind> unexpected in: <text>"` per extra kind on a positive text; not part of either rate. */
  unexpected: string[];
}

const SNIPPET = 80;

/**
 * Runs `detect` over every case. Kinds are counted as multisets: a text expecting two emails needs two email
 * detections; extra detections on a positive text are listed in `unexpected`.
 */
export function measureDetector(
  corpus: readonly DetectorCase[],
  detect: (text: string) => readonly string[],
): DetectorMetrics {
  let expected = 0;
  let found = 0;
  let negatives = 0;
  const misses: string[] = [];
  const falsePositives: string[] = [];
  const unexpected: string[] = [];
  for (const c of corpus) {
    const got = detect(c.text);
    if (c.expect.length === 0) {
      negatives++;
      if (got.length > 0) falsePositives.push(`${[...new Set(got)].join(', ')} in: ${snippet(c.text)}`);
      continue;
    }
    const remaining = countKinds(got);
    for (const kind of c.expect) {
      expected++;
      const left = remaining.get(kind) ?? 0;
      if (left > 0) {
        found++;
        remaining.set(kind, left - 1);
      } else {
        misses.push(`${kind} missed in: ${snippet(c.text)}`);
      }
    }
    for (const [kind, left] of remaining) {
      if (left > 0 && !c.expect.includes(kind)) unexpected.push(`${kind} unexpected in: ${snippet(c.text)}`);
    }
  }
  return {
    recall: expected === 0 ? 1 : found / expected,
    falsePositiveRate: negatives === 0 ? 0 : falsePositives.length / negatives,
    misses,
    falsePositives,
    unexpected,
  };
}

function countKinds(kinds: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET)}…` : flat;
}
