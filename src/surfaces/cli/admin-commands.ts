/** CLI commands that manage the memory: export, restore, forget, doctor. */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { TidepoolError } from '../../core/errors.js';
import { creating, print, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

const SOURCE: Record<string, string> = {
  xdg: 'XDG location',
  legacy: 'old location ~/.tidepool, read because it exists',
  env: 'named by TIDEPOOL_CONFIG',
};

/** Registers export, restore, forget and doctor. */
export function registerAdminCommands(program: Command, deps: CliDeps): void {
  withCommon(program.command('export').description('write the whole space as JSON lines on stdout')).action(async (o: CommonOptions) => {
    await withMemory(deps, o, async (m) => {
      for await (const line of m.export()) {
        if (!deps.stdout.write(`${line}\n`)) await new Promise((r) => deps.stdout.once('drain', r));
      }
    });
  });

  withCommon(
    program
      .command('restore')
      .description(
        'load an export into an empty space (all or nothing); ids are kept where the database does not use them, else the rows get new ids and every link follows (a copy into another space of the same database)',
      )
      .argument('[file]', 'export file; omit to read stdin'),
  ).action(async (file: string | undefined, o: CommonOptions) => {
    if (file !== undefined && !existsSync(file)) throw new TidepoolError('not_found', `no such file: ${file}`, { field: 'file' });
    const input = file !== undefined ? createReadStream(file, 'utf8') : deps.stdin;
    // Listen at once: lines read while the restore code is still loading would otherwise be dropped.
    const reader = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
    const lines: AsyncIterable<string> = { [Symbol.asyncIterator]: () => reader };
    await withMemory(deps, creating(o), async (m) => {
      const r = await m.restore(lines);
      const moved = r.renumbered ? ` (new ids in ${r.renumbered.length} table(s): ${r.renumbered.join(', ')})` : '';
      print(deps, o, r, () => `restored ${r.rows} row(s) into space ${m.space}${moved}`);
    });
  });

  withCommon(
    program
      .command('forget')
      .description('remove one item by id (e12, n3, k7), every version of a --key, or the whole space (--all --yes), with every copy of its text, to the byte')
      .argument('[id]', 'item id')
      .option('--key <key>', 'forget every version of this key')
      .option('--all', 'erase the whole space')
      .option('--yes', 'confirm --all'),
  ).action(async (id: string | undefined, o: CommonOptions & { key?: string; all?: boolean; yes?: boolean }) => {
    if (o.all && !o.yes) throw new TidepoolError('invalid_input', 'forget --all erases the whole space: add --yes to confirm', { field: 'yes' });
    const given = [id !== undefined, o.key !== undefined, !!o.all].filter(Boolean).length;
    if (given !== 1) throw new TidepoolError('invalid_input', 'give exactly one of: an id, --key, or --all --yes');
    await withMemory(deps, o, async (m) => {
      const r = await m.forget(o.all ? { all: true, confirm: true } : o.key !== undefined ? { key: o.key } : { id: id! });
      print(deps, o, r, () =>
        r.kind === 'space' ? `erased space ${r.space}` : `forgot ${r.removed} item(s)${r.copies > 0 ? ` and ${r.copies} copy(ies) of the text` : ''}`,
      );
    });
  });

  withCommon(program.command('doctor').description("versions, database location, index and vector status, integrity check, the space's recent warnings")).action(
    async (o: CommonOptions) => {
      await withMemory(deps, o, async (m) => {
        const r = await m.doctor();
        // Which config file and default location are in use: the XDG ones, or the old ~/.tidepool still read.
        const { config } = deps.env;
        const paths = { config: config ?? null, default_db: deps.env.defaultDb, default_db_source: deps.env.defaultDbSource ?? null };
        print(deps, o, { ...r, paths }, () =>
          [
            `tidepool ${r.tidepool} on node ${r.node}`,
            `engine    ${r.engine} ${Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`,
            `database  ${r.db} (schema v${r.schema_version})`,
            ...(config ? [`config    ${config.path} (${config.exists ? 'read' : 'none there'}; ${SOURCE[config.source] ?? config.source})`] : []),
            `default   ${deps.env.defaultDb}${deps.env.defaultDbSource ? ` (${SOURCE[deps.env.defaultDbSource] ?? deps.env.defaultDbSource})` : ''}`,
            `features  ${Object.entries(r.features).map(([k, v]) => `${k}:${v ? 'yes' : 'no'}`).join(' ')}`,
            `integrity ${r.integrity}`,
            `space     ${r.space}: ${r.counts.episodes} episodes, ${r.counts.narratives} narratives, ${r.counts.knowledge} knowledge, ${r.counts.vectors} vectors`,
            `embedder  ${r.embedder.provider}${r.embedder.model ? ` (${r.embedder.model}, ${r.embedder.reachable ? 'reachable' : 'unreachable'})` : ''}`,
            ...(r.warnings.length === 0
              ? ['warnings  none']
              : r.warnings.map((w, i) =>
                  `${i === 0 ? 'warnings' : '        '}  ${w.kind} ×${w.count}, last ${new Date(w.lastAt).toISOString()}: ${w.recent.at(-1) ?? ''}`,
                )),
          ].join('\n'),
        );
        if (!r.ok) process.exitCode = 1;
      });
    },
  );
}
