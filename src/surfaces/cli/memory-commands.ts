/** CLI commands that write: init, remember, record, write. */
import type { Command } from 'commander';
import { TidepoolError } from '../../core/errors.js';
import { narrativeInput, recordTurn, type RecordTurn } from '../../core/schemas.js';
import { KNOWLEDGE_KINDS, NARRATIVE_KINDS } from '../../core/types.js';
import { choiceOption, creating, intOption, listOption, print, readStdin, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

/** Registers init, remember, record and write. */
export function registerMemoryCommands(program: Command, deps: CliDeps): void {
  withCommon(program.command('init').description('create the memory database and space (safe to run again)')).action(
    async (o: CommonOptions) => {
      await withMemory(deps, creating(o), async (m) => {
        const report = await m.doctor();
        print(deps, o, { db: report.db, space: m.space, schema_version: report.schema_version }, () => `memory ready at ${report.db} (space ${m.space}, schema v${report.schema_version})`);
      });
    },
  );

  withCommon(
    program
      .command('remember')
      .description('store a durable memory; a --key supersedes the previous value (credentials are refused)')
      .argument('<text>', 'what to remember; text starting with "-" (a PEM block, a list item) is taken as text, or put -- before it: remember -- "- buy milk"')
      .option('--key <key>', 'stable key: a later remember with the same key supersedes this one')
      .option('--kind <kind>', 'fact | entity | preference | procedure | concept | open_problem | recipe', 'fact')
      .option('--importance <1-5>', 'importance 1-5', '3')
      .option('--tags <a,b>', 'comma-separated tags')
      .option('--not-durable', 'let it expire like captured turns'),
  ).action(async (text: string, o: CommonOptions & { key?: string; kind: string; importance: string; tags?: string; notDurable?: boolean }) => {
    await withMemory(deps, creating(o), async (m) => {
      const r = await m.remember({
        text, key: o.key, kind: choiceOption('kind', o.kind, KNOWLEDGE_KINDS), importance: intOption('importance', o.importance),
        tags: listOption(o.tags), durable: !o.notDurable,
      });
      print(deps, o, r, () =>
        r.kind === 'superseded' ? `remembered ${r.id} (supersedes ${r.supersedes})` : r.kind === 'reinforced' ? `reinforced ${r.id} (seen ${r.occurrences}×)` : `remembered ${r.id}`,
      );
    });
  });

  withCommon(
    program
      .command('record')
      .description('record a turn (or JSONL turns on stdin: {"role","content","session","tool","ok","at"} per line)')
      .argument('[text]', 'the turn text; omit to read JSONL from stdin')
      .option('--role <role>', 'user | assistant | system | tool', 'user')
      .option('--session <id>', 'session id')
      .option('--speaker <name>', 'who spoke')
      .option('--tool <name>', 'tool name (for tool calls and results)')
      .option('--ok <bool>', 'whether the tool call succeeded (true|false)')
      .option('--at <time>', 'when it happened (ISO 8601 or epoch ms; default now)'),
  ).action(async (text: string | undefined, o: CommonOptions & { role: string; session?: string; speaker?: string; tool?: string; ok?: string; at?: string }) => {
    let turns: RecordTurn[];
    if (text !== undefined) {
      turns = [{
        role: choiceOption('role', o.role, recordTurn.shape.role.unwrap().options), content: text, session: o.session, speaker: o.speaker, tool: o.tool,
        ok: o.ok === undefined ? undefined : parseBool(o.ok), at: o.at === undefined ? undefined : /^\d+$/.test(o.at) ? Number(o.at) : o.at,
      }];
    } else {
      if (deps.stdin.isTTY) throw new TidepoolError('invalid_input', 'give the turn text, or pipe JSONL turns on stdin');
      turns = parseJsonl(await readStdin(deps)).map((t) => ({ session: o.session, ...(t as object) }) as RecordTurn);
    }
    await withMemory(deps, creating(o), async (m) => {
      const r = await m.record({ turns });
      print(deps, o, r, () => `recorded ${r.ids.length} episode(s)${r.skipped ? `, ${r.skipped} already present` : ''}${r.redacted ? `, ${r.redacted} secret(s) redacted` : ''}`);
    });
  });

  withCommon(
    program
      .command('write')
      .description('write a structured narrative (Tideline memory_write)')
      .option('--gesture <text>', 'what happened, one first-person sentence with tone (required)')
      .option('--context <text>', 'the backdrop')
      .option('--moment <text>', 'the moment itself')
      .option('--direction <text>', 'cognition direction: where thinking went')
      .option('--importance <1-5>', 'importance 1-5')
      .option('--emotional <1-5>', 'emotional charge 1-5')
      .option('--unresolved <1-5>', 'how unresolved 1-5')
      .option('--tags <a,b>', 'comma-separated tags (reuse existing ones)')
      .option('--entities-role <spec>', 'roles, e.g. "A=判断+执行; B=审查"')
      .option('--source-links <ids>', 'comma-separated episode ids it came from')
      .option('--type <type>', 'gesture | context | moment | self_reflection | general', 'general')
      .option('--kind <kind>', 'narrative | self_reflection | dream'),
  ).action(async (o: CommonOptions & Record<string, string | undefined>) => {
    await withMemory(deps, creating(o), async (m) => {
      const r = await m.write({
        gesture: o.gesture, context: o.context, moment: o.moment, cognition_direction: o.direction,
        importance: intOption('importance', o.importance), emotional: intOption('emotional', o.emotional),
        unresolved: intOption('unresolved', o.unresolved), tags: listOption(o.tags), entities_role: o.entitiesRole,
        source_links: listOption(o.sourceLinks),
        narrative_type: choiceOption('type', o.type, narrativeInput.shape.narrative_type.unwrap().options),
        kind: choiceOption('kind', o.kind, NARRATIVE_KINDS),
      });
      print(deps, o, r, () => `wrote ${r.id} weight=${r.weight} recurrence=${r.recurrence}${r.tags.length ? ` | tags: ${r.tags.join(', ')}` : ''}`);
    });
  });
}

function parseBool(v: string): boolean {
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new TidepoolError('invalid_input', `--ok must be true or false, got "${v}"`, { field: 'ok' });
}

function parseJsonl(text: string): unknown[] {
  const out: unknown[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line));
    } catch {
      throw new TidepoolError('invalid_input', `stdin line ${i + 1} is not JSON`, { field: 'stdin' });
    }
  });
  if (out.length === 0) throw new TidepoolError('invalid_input', 'stdin held no turns');
  return out;
}
