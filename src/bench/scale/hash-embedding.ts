// A deterministic 384-d "embedding" made by hashing words and character trigrams: texts sharing words are similar.
import type { BenchEmbedder } from '../retrieval-system.js';

/** Dimensions of the generated embedding (the size of common small sentence encoders, e.g. MiniLM). */
export const HASH_EMBEDDING_DIMS = 384;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const HAN = /\p{Script=Han}/u;

function add(v: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  // The top bit picks the sign (the index uses the low bits), so colliding features cancel on average.
  const sign = h >>> 31 === 0 ? weight : -weight;
  const i = h % v.length;
  v[i] = (v[i] as number) + sign;
}

function addFeatures(v: Float32Array, text: string): void {
  for (const word of text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (HAN.test(word)) {
      // Chinese has no spaces: characters and character bigrams stand in for words.
      const chars = [...word];
      for (let i = 0; i < chars.length; i += 1) {
        add(v, chars[i] as string, 0.5);
        if (i + 1 < chars.length) add(v, `${chars[i]}${chars[i + 1]}`, 1);
      }
      continue;
    }
    add(v, word, 1);
    // Trigrams make inflections ("deploy", "deployed") land near each other.
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i += 1) add(v, padded.slice(i, i + 3), 0.25);
  }
}

/**
 * Feature hashing: each word (weight 1), trigram of a word (0.25), Chinese character (0.5) and
 * character bigram (1) adds ±weight to one of `dims` coordinates; the result is L2-normalised, so the
 * cosine of two texts grows with the features they share. Empty text maps to a fixed unit vector.
 * @example cosine(hashEmbedding('deploy the server'), hashEmbedding('server deployed')) > 0.3
 */
export function hashEmbedding(text: string, dims = HASH_EMBEDDING_DIMS): Float32Array {
  const v = new Float32Array(dims);
  addFeatures(v, text);
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dims; i += 1) v[i] = (v[i] as number) * inv;
  return v;
}

/** Cosine similarity of two vectors of equal length. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * The hash embedding as a {@link BenchEmbedder}: lets Orama's hybrid mode (and any hybrid system) run
 * without a model. It is lexical at heart, so it measures the hybrid machinery, not semantics.
 */
export const hashEmbedder: BenchEmbedder = {
  dims: HASH_EMBEDDING_DIMS,
  embed: async (texts) => texts.map((t) => hashEmbedding(t)),
};
