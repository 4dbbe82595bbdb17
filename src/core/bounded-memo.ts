/**
 * A memo of a pure function's results that starts over when full: the hot paths that see the same inputs again
 * (stems, a turn's terms, its segmentation, a label's redaction, statement names) keep the last few thousand without
 * an eviction order to maintain.
 */

/** `compute(key)`, remembered in `memo` until it holds `limit` entries (then it is cleared and starts over). */
export function remembered<K, V>(memo: Map<K, V>, limit: number, key: K, compute: (key: K) => V): V {
  let out = memo.get(key);
  if (out === undefined) {
    out = compute(key);
    if (memo.size >= limit) memo.clear();
    memo.set(key, out);
  }
  return out;
}
