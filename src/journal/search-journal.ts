/** `journal search`: substring search over hot files (or all with scope=all); each file returned counts a lookup. */
import { parseInput } from '../core/schemas.js';
import type { z } from 'zod';
import { countLookups, journalToday, openWorkspace, type JournalContext } from './journal-context.js';
import { readDayTexts } from './journal-indexing.js';
import { JournalSearchInput } from './journal-inputs.js';
import { rankSearch, type SearchDoc, type SearchHit } from './search-ranking.js';
import { dayKey } from './usage-book.js';

/** Search results. The query is deliberately not echoed, so printed JSON shows only what matched. */
export interface JournalSearchResult {
  scope: 'hot' | 'all';
  /** Files that matched, before the limit. */
  total: number;
  limit: number;
  results: SearchHit[];
  /** Files whose lookup counted today for the first time. */
  counted: string[];
}

/** Runs a search in the workspace. */
export async function searchJournal(
  ctx: JournalContext,
  raw: z.input<typeof JournalSearchInput>,
): Promise<JournalSearchResult> {
  const input = parseInput(JournalSearchInput, raw);
  const ws = await openWorkspace(ctx, input.root, { bootstrap: true });
  const docs: SearchDoc[] = [];
  for (const file of ['MEMORY.md', 'TODO.md']) {
    const text = await ws.dir.readText(file);
    if (text !== undefined) docs.push({ file, tier: 'core', text });
  }
  for (const d of await readDayTexts(ws.dir)) {
    // Legacy files are the old layout's hot days until the first tend moves them.
    if (d.location === 'cold' && input.scope !== 'all') continue;
    docs.push({ file: d.file, tier: d.location, date: d.date, text: d.text });
  }
  const limit = input.limit ?? ws.config.searchLimit;
  const { total, results } = rankSearch(docs, input.query, { limit, context: ws.config.searchContext });
  const names = results.map((r) => (r.date !== undefined ? dayKey(r.date) : r.file));
  const counted = await countLookups(ctx, ws, names, journalToday(ctx));
  return { scope: input.scope, total, limit, results, counted };
}
