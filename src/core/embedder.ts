/** The Embedder port: turns texts into vectors; adapters live in src/embedders/ and are chosen by boot/. */

/** Turns texts into vectors of one model. */
export interface Embedder {
  /** Stored with every vector, so vectors of different models never mix. */
  readonly model: string;
  /** One vector per text, in order. Throws on failure (after the adapter's own retries). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Cosine similarity of two vectors of equal length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
