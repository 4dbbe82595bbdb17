/** `tidepool token create|list|revoke`: API tokens for the HTTP API and MCP over HTTP. */
import type { Command } from 'commander';
import { TidepoolError } from '../../core/errors.js';
import { creating, intOption, isoMinute, print, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

/** Registers `token`. */
export function registerTokenCommand(program: Command, deps: CliDeps): void {
  const token = program.command('token').description('API tokens: each one reads or writes one space (read < write < admin)');
  withCommon(
    token
      .command('create')
      .description('create a token for --space with --scope; the secret is printed once and stored only as a hash')
      .requiredOption('--scope <scope>', 'read, write or admin')
      .option('--label <text>', 'a note saying who or what uses it'),
  ).action(async (o: CommonOptions & { scope: string; label?: string }) => {
    if (!o.space) throw new TidepoolError('invalid_input', '--space is required: a token sees only its own space', { field: 'space' });
    await withMemory(deps, creating(o), async (m) => {
      const r = await m.createToken({ space: o.space, scope: o.scope, label: o.label });
      print(deps, o, r, () => `${r.token}\n(token ${r.id}: ${r.scope} on space ${r.space}; shown once, store it now — send it as "Authorization: Bearer <token>")`);
    });
  });
  withCommon(token.command('list').description('list tokens (never their secrets); --space limits to one space')).action(async (o: CommonOptions) => {
    await withMemory(deps, o, async (m) => {
      const rows = await m.listTokens(o.space);
      print(deps, o, rows, () =>
        rows.length === 0
          ? 'no tokens: create one with `tidepool token create --space S --scope read|write|admin`'
          : rows
              .map((t) => `${t.id}\t${t.space}\t${t.scope}\t${t.revokedAt === null ? 'live' : 'revoked'}\tcreated ${isoMinute(t.createdAt)}${t.lastUsedAt ? `\tused ${isoMinute(t.lastUsedAt)}` : ''}${t.label ? `\t${t.label}` : ''}`)
              .join('\n'),
      );
    });
  });
  withCommon(token.command('revoke').description('revoke a token by id').argument('<id>', 'token id (see token list)')).action(
    async (id: string, o: CommonOptions) => {
      const n = intOption('id', id)!;
      await withMemory(deps, o, async (m) => {
        await m.revokeToken(n);
        print(deps, o, { revoked: n }, () => `revoked token ${n}`);
      });
    },
  );
}
