/**
 * Journal search, pure: case-insensitive substring matching over lines (so two-character Chinese words such as 竞态
 * match without a segmenter), files ranked by query coverage, hit count and recency, with context lines around hits.
 */
import { splitLines } from './day-file.js';

/** A searchable file. */
export interface SearchDoc {
  /** Path relative to `memory/`. */
  file: string;
  /** `core` for MEMORY.md and TODO.md, else where the day file lies. */
  tier: 'core' | 'hot' | 'cold' | 'legacy';
  date?: string;
  text: string;
}

/** A window of lines around one or more hits; lines are verbatim. */
export interface SearchSnippet {
  /** The `##` heading above the first hit, without `## `. */
  heading?: string;
  /** 1-based line number of `lines[0]`. */
  startLine: number;
  lines: string[];
  /** 1-based line numbers that matched. */
  matchLines: number[];
}

/** One file in the results. */
export interface SearchHit {
  file: string;
  tier: SearchDoc['tier'];
  date?: string;
  /** Number of matching lines. */
  hits: number;
  snippets: SearchSnippet[];
  /** Windows left out beyond MAX_SNIPPETS. */
  moreSnippets: number;
}

/** Most snippets shown per file; the rest are counted, so one busy file cannot flood the context. */
export const MAX_SNIPPETS = 5;

const CJK_RE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

function norm(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

interface Term {
  full: string;
  /** Pieces tried when the whole term is absent: CJK bigrams and Latin runs of a term written without spaces. */
  pieces: string[];
}

/** Splits a query into terms: whitespace-separated words or `"quoted phrases"`, normalised for matching. */
export function queryTerms(query: string): Term[] {
  const terms: Term[] = [];
  for (const m of query.matchAll(/"([^"]+)"|(\S+)/g)) {
    const full = norm((m[1] ?? m[2] ?? '').trim());
    if (full === '' || terms.some((t) => t.full === full)) continue;
    terms.push({ full, pieces: m[1] === undefined ? fallbackPieces(full) : [] });
  }
  return terms;
}

function fallbackPieces(term: string): string[] {
  if (!CJK_RE.test(term)) return [];
  const pieces = new Set<string>();
  for (const run of term.match(
    /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+|[\p{L}\p{N}]+/gu,
  ) ?? []) {
    const chars = [...run];
    if (!CJK_RE.test(run)) {
      if (chars.length >= 2) pieces.add(run);
    } else if (chars.length <= 2) pieces.add(run);
    else for (let i = 0; i + 1 < chars.length; i++) pieces.add(chars[i]! + chars[i + 1]!);
  }
  return pieces.size === 1 && pieces.has(term) ? [] : [...pieces];
}

function headingsAbove(lines: string[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let current: string | undefined;
  let fence = false;
  for (const line of lines) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? null : /^##(?!#)[ \t]+(.*?)[ \t]*$/.exec(line);
    if (h) current = h[1];
    out.push(current);
  }
  return out;
}

/**
 * Ranks `docs` for `query`: a line hits when it contains a term (or, for an unspaced CJK term, one of its bigrams);
 * files sort by how much of the query they cover, then matching lines, then date (MEMORY.md and TODO.md count as
 * newest). Returns at most `limit` files and the number that matched.
 */
export function rankSearch(
  docs: readonly SearchDoc[],
  query: string,
  opts: { limit: number; context: number },
): { total: number; results: SearchHit[] } {
  const terms = queryTerms(query);
  if (terms.length === 0) return { total: 0, results: [] };
  const scored: { hit: SearchHit; coverage: number; recency: string }[] = [];
  for (const doc of docs) {
    const lines = splitLines(doc.text);
    const matchLines: number[] = [];
    const full = new Set<number>();
    const piecesFound = terms.map(() => new Set<string>());
    lines.forEach((line, i) => {
      const l = norm(line);
      let hit = false;
      terms.forEach((t, ti) => {
        if (l.includes(t.full)) {
          full.add(ti);
          hit = true;
        } else {
          for (const p of t.pieces) {
            if (!l.includes(p)) continue;
            piecesFound[ti]!.add(p);
            hit = true;
          }
        }
      });
      if (hit) matchLines.push(i);
    });
    if (matchLines.length === 0) continue;
    // A whole term counts 1; a term found only in pieces counts half its share of pieces found.
    const coverage = terms.reduce(
      (sum, t, ti) =>
        sum + (full.has(ti) ? 1 : t.pieces.length > 0 ? (0.5 * piecesFound[ti]!.size) / t.pieces.length : 0),
      0,
    );
    const snippets = windows(lines, matchLines, opts.context);
    const hit: SearchHit = {
      file: doc.file,
      tier: doc.tier,
      ...(doc.date !== undefined ? { date: doc.date } : {}),
      hits: matchLines.length,
      snippets: snippets.slice(0, MAX_SNIPPETS),
      moreSnippets: Math.max(0, snippets.length - MAX_SNIPPETS),
    };
    scored.push({ hit, coverage, recency: doc.date ?? '9999-12-31' });
  }
  scored.sort(
    (a, b) =>
      b.coverage - a.coverage ||
      b.hit.hits - a.hit.hits ||
      b.recency.localeCompare(a.recency) ||
      a.hit.file.localeCompare(b.hit.file),
  );
  return { total: scored.length, results: scored.slice(0, opts.limit).map((s) => s.hit) };
}

function windows(lines: string[], matches: number[], context: number): SearchSnippet[] {
  const heads = headingsAbove(lines);
  const out: SearchSnippet[] = [];
  let cur: { start: number; end: number; hits: number[] } | undefined;
  const flush = () => {
    if (!cur) return;
    const heading = heads[cur.hits[0]!];
    out.push({
      ...(heading !== undefined ? { heading } : {}),
      startLine: cur.start + 1,
      lines: lines.slice(cur.start, cur.end + 1),
      matchLines: cur.hits.map((h) => h + 1),
    });
  };
  for (const m of matches) {
    const start = Math.max(0, m - context);
    const end = Math.min(lines.length - 1, m + context);
    if (cur && start <= cur.end + 1) {
      cur.end = Math.max(cur.end, end);
      cur.hits.push(m);
    } else {
      flush();
      cur = { start, end, hits: [m] };
    }
  }
  flush();
  return out;
}
