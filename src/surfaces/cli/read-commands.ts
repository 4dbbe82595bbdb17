/** CLI commands that read: recall, know, timeline. */
import type { Command } from 'commander';
import { episodeJson, hitJson } from '../../app/wire-format.js';
import { timelineInput } from '../../core/schemas.js';
import { KNOWLEDGE_KINDS, LAYERS } from '../../core/types.js';
import { choiceListOption, choiceOption, intOption, isoMinute, listOption, numberOption, print, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

/** Registers recall, know and timeline. */
export function registerReadCommands(program: Command, deps: CliDeps): void {
  withCommon(
    program
      .command('recall')
      .description('search the memory (episodes, narratives, knowledge); exact phrase hits first')
      .argument('<query>', 'what to look for')
      .option('--limit <n>', 'most results', '10')
      .option('--layers <list>', 'episode,narrative,knowledge')
      .option('--kinds <list>', 'knowledge or narrative kinds to keep')
      .option('--since <time>', 'only items at or after this time')
      .option('--until <time>', 'only items at or before this time (a date without a time means the end of that day)')
      .option('--session <id>', 'only episodes of this session')
      .option('--min-weight <0-1>', 'only narratives at least this heavy')
      .option('--max-tokens <n>', 'fit the results into this many tokens (whole items)'),
  ).action(async (query: string, o: CommonOptions & Record<string, string | undefined>) => {
    await withMemory(deps, o, async (m) => {
      const hits = await m.recall({
        query, limit: intOption('limit', o.limit), layers: choiceListOption('layers', o.layers, LAYERS), kinds: listOption(o.kinds),
        since: o.since, until: o.until, session: o.session, minWeight: numberOption('min-weight', o.minWeight),
        maxTokens: intOption('max-tokens', o.maxTokens),
      });
      const results = hits.map(hitJson);
      // One line per hit: id, layer, date, speaker, why (matched words, window, substring, vector); its context below.
      const line = (h: (typeof hits)[number]) => {
        const why = h.why
          ? [h.why.words.length > 0 ? `words: ${h.why.words.join(' ')}` : '', h.why.window ? 'window' : '', h.why.substring ? 'substring' : '', h.why.vector ? 'vector' : '']
              .filter(Boolean).join(', ')
          : '';
        const head = `${h.id.padEnd(7)} ${h.layer.padEnd(9)} ${isoMinute(h.createdAt)}  ${h.speaker ? `${h.speaker}: ` : ''}${h.text}`;
        const ctx = (h.context ?? []).map((c) => `  ↳ ${c.id.padEnd(7)} ${'context'.padEnd(9)} ${isoMinute(c.createdAt)}  ${c.speaker ? `${c.speaker}: ` : ''}${c.text}`);
        return [why ? `${head}  (${why})` : head, ...ctx].join('\n');
      };
      print(deps, o, { results }, () => (hits.length === 0 ? 'nothing found' : hits.map(line).join('\n')));
    });
  });

  withCommon(
    program
      .command('know')
      .description('consolidated knowledge (reliable and provisional, never quarantined): the strongest entries, or those matching a query, subject or kinds')
      .argument('[query]', 'free-text search within knowledge; omit to list')
      .option('--subject <name>', 'only knowledge about this entity or topic')
      .option('--kinds <list>', 'fact,entity,preference,procedure,concept,open_problem,recipe')
      .option('--limit <n>', 'most entries', '10'),
  ).action(async (query: string | undefined, o: CommonOptions & Record<string, string | undefined>) => {
    await withMemory(deps, o, async (m) => {
      // The same use case as MCP `know` and GET /v1/know (the facade loads it on first use).
      const entries = await m.know({
        ...(query !== undefined ? { query } : {}), ...(o.subject !== undefined ? { subject: o.subject } : {}),
        ...(o.kinds !== undefined ? { kinds: choiceListOption('kinds', o.kinds, KNOWLEDGE_KINDS) } : {}), limit: intOption('limit', o.limit),
      });
      print(deps, o, { entries }, () =>
        entries.length === 0
          ? 'no knowledge matches (it grows from remember and from nightly sleep; try recall for raw history)'
          : entries
              .map((k) => `${k.id.padEnd(7)} ${k.kind.padEnd(12)} ${k.status.padEnd(11)} ${k.strength.toFixed(2)}  ${k.subject ? `${k.subject}: ` : ''}${k.content}`)
              .join('\n'),
      );
    });
  });

  withCommon(
    program
      .command('timeline')
      .description('raw history in time order (archive included)')
      .option('--from <time>', 'start (ISO 8601, YYYY-MM-DD or epoch ms)')
      .option('--to <time>', 'end, inclusive (a date without a time means the end of that day)')
      .option('--session <id>', 'one session only')
      .option('--limit <n>', 'page size', '20')
      .option('--offset <n>', 'skip this many', '0')
      .option('--order <asc|desc>', 'oldest or newest first', 'desc'),
  ).action(async (o: CommonOptions & Record<string, string | undefined>) => {
    await withMemory(deps, o, async (m) => {
      const page = await m.timeline({
        from: o.from, to: o.to, session: o.session, limit: intOption('limit', o.limit), offset: intOption('offset', o.offset),
        order: choiceOption('order', o.order, timelineInput.shape.order.unwrap().options),
      });
      const items = page.items.map(episodeJson);
      print(deps, o, { total: page.total, offset: page.offset, items }, () => {
        const head = `${page.offset + (items.length ? 1 : 0)}–${page.offset + items.length} / ${page.total}`;
        return [head, ...page.items.map((e) => `e${e.id} ${isoMinute(e.occurredAt)} ${e.speaker ?? e.role ?? e.kind}: ${e.content}`)].join('\n');
      });
    });
  });
}
