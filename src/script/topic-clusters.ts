/** TF-IDF topic clusters: each mid-frequency keyword is a cluster of the narratives holding it (SEEDS §1.7). */

/** A narrative reduced to what topic clustering reads; `keywords` come from `extractKeywords`. */
export interface TopicDoc {
  id: number;
  keywords: readonly string[];
  weight: number;
  createdAt: number;
}

/** One topic cluster, ready to store (Tideline `topic_clusters`). */
export interface TopicCluster {
  /** The keyword, or for a merged cluster its top 3 keywords by IDF joined " / ". */
  name: string;
  /** Member keywords, highest IDF first. */
  keywords: string[];
  narrativeIds: number[];
  /** Number of narratives (Tideline's misnamed `noun_freq`). */
  size: number;
  /** Newest createdAt of a member, epoch ms. */
  lastActive: number;
  avgWeight: number;
  /** ln(N / size): how specific the cluster is. */
  idf: number;
}

/** Options of {@link buildTopicClusters}; defaults are Tideline's `build_clusters` arguments. */
export interface TopicClusterOptions {
  /** Minimum document frequency (SEEDS §1.7: 3). */
  minFreq?: number;
  /** Share of all narratives at which a word counts as generic (SEEDS §1.7: 0.20). */
  maxDfRatio?: number;
  /** Join words whose narrative sets overlap (union-find); off by default (SEEDS §1.7: it cascades below ~1000). */
  merge?: boolean;
  /** Jaccard overlap that joins two words when merging (SEEDS §1.7: 0.7). */
  minJaccard?: number;
}

/** Clusters plus the vocabulary decisions, so a report can say why a word is missing. */
export interface TopicClustering {
  clusters: TopicCluster[];
  /**
   * How many words were dropped as too rare (DF < minFreq) and as too generic (DF ≥ maxDf). Counts, not words:
   * a `--json` listing of topics must not name the generic words it dropped.
   */
  dropped: { rare: number; generic: number };
  /** The generic threshold used: max(minFreq + 1, ⌊N · maxDfRatio⌋). */
  maxDf: number;
  docCount: number;
}

/** The text a narrative's keywords come from (SEEDS §1.7: content + gesture + context + cognition_direction). */
export function topicText(n: {
  content?: string | null;
  gesture?: string | null;
  context?: string | null;
  cognitionDirection?: string | null;
}): string {
  return [n.content, n.gesture, n.context, n.cognitionDirection].filter((t) => t).join('\n');
}

/** Defaults of SEEDS §1.7. */
export const TOPIC_DEFAULTS = { minFreq: 3, maxDfRatio: 0.2, merge: false, minJaccard: 0.7 } as const;

/**
 * Builds the topic clusters. A word is kept when minFreq ≤ DF < max(minFreq + 1, ⌊N · maxDfRatio⌋); each kept
 * word is a cluster, or with `merge` the kept words that co-occur and overlap by Jaccard ≥ minJaccard are joined.
 * Output is sorted by size, then name, so the same docs always give the same list.
 */
export function buildTopicClusters(
  docs: readonly TopicDoc[],
  opts: TopicClusterOptions = {},
): TopicClustering {
  const minFreq = opts.minFreq ?? TOPIC_DEFAULTS.minFreq;
  const ratio = opts.maxDfRatio ?? TOPIC_DEFAULTS.maxDfRatio;
  const n = docs.length;
  const maxDf = Math.max(minFreq + 1, Math.floor(n * ratio));
  const postings = new Map<string, number[]>(); // word → indexes into docs
  docs.forEach((d, i) => {
    for (const w of new Set(d.keywords)) {
      const list = postings.get(w);
      if (list) list.push(i);
      else postings.set(w, [i]);
    }
  });
  const kept = new Map<string, number[]>();
  let rare = 0;
  let generic = 0;
  for (const [w, list] of postings) {
    if (list.length < minFreq) rare++;
    else if (list.length >= maxDf) generic++;
    else kept.set(w, list);
  }
  const idf = (df: number) => Math.log(n / df);
  const groups = opts.merge
    ? mergeWords(docs, kept, opts.minJaccard ?? TOPIC_DEFAULTS.minJaccard)
    : [...kept.keys()].map((w) => [w]);
  const clusters = groups.map((words) => {
    const ranked = [...words].sort(
      (a, b) => idf(kept.get(b)!.length) - idf(kept.get(a)!.length) || cmp(a, b),
    );
    const members = [...new Set(words.flatMap((w) => kept.get(w)!))]
      .map((i) => docs[i]!)
      .sort((a, b) => a.id - b.id);
    const size = members.length;
    return {
      name: ranked.slice(0, 3).join(' / '),
      keywords: ranked,
      narrativeIds: members.map((d) => d.id),
      size,
      lastActive: Math.max(...members.map((d) => d.createdAt)),
      avgWeight: round4(members.reduce((s, d) => s + d.weight, 0) / size),
      idf: round4(idf(size)),
    };
  });
  clusters.sort((a, b) => b.size - a.size || cmp(a.name, b.name));
  return { clusters, dropped: { rare, generic }, maxDf, docCount: n };
}

/** Union-find over kept words: a pair sharing a document with Jaccard(docs) ≥ minJaccard is joined. */
function mergeWords(
  docs: readonly TopicDoc[],
  kept: ReadonlyMap<string, number[]>,
  minJaccard: number,
): string[][] {
  const words = [...kept.keys()].sort(cmp);
  const index = new Map(words.map((w, i) => [w, i]));
  const parent = words.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const checked = new Set<string>();
  for (const d of docs) {
    const inDoc = [...new Set(d.keywords)]
      .filter((w) => kept.has(w))
      .map((w) => index.get(w)!)
      .sort((a, b) => a - b);
    for (let x = 0; x < inDoc.length; x++) {
      for (let y = x + 1; y < inDoc.length; y++) {
        const a = inDoc[x]!;
        const b = inDoc[y]!;
        const key = `${a},${b}`;
        if (checked.has(key)) continue;
        checked.add(key);
        if (jaccard(kept.get(words[a]!)!, kept.get(words[b]!)!) >= minJaccard) parent[find(a)] = find(b);
      }
    }
  }
  const groups = new Map<number, string[]>();
  words.forEach((w, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(w);
    else groups.set(root, [w]);
  });
  return [...groups.values()];
}

/** Jaccard of two ascending index lists. */
function jaccard(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
