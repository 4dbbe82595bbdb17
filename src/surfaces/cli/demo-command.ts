/** `tidepool demo`: the quick start — writes memories into a demo database, recalls them, and shows what's next. */
import type { Command } from 'commander';
import { isoMinute, print, withCommon, withMemory, type CliDeps, type CommonOptions } from './cli-deps.js';

/** Registers the demo command (what `npm start` runs). */
export function registerDemoCommand(program: Command, deps: CliDeps): void {
  withCommon(program.command('demo').description('write a few memories into a demo database, recall them, and show how to connect an agent')).action(
    async (o: CommonOptions) => {
      const db = o.db ?? `${deps.env.cwd}/.tidepool/demo.db`;
      const opts = { ...o, db, space: o.space ?? 'demo', create: true };
      await withMemory(deps, opts, async (m) => {
        await m.forget({ all: true, confirm: true });
        const out: string[] = [];
        const say = (s: string) => out.push(s);
        say(`Tidepool demo — memory file ${db}, space "${m.space}"\n`);
        say('1. Writing memories');
        const writes = [
          await m.remember({ text: 'The staging database moved to port 6543 on 2026-11-02', key: 'staging.db.port', tags: ['infra'] }),
          await m.remember({ text: '用户爱喝咖啡，每天早上一杯，不加糖', kind: 'preference', tags: ['偏好'] }),
          await m.remember({ text: 'Ana reviews every migration before it ships', kind: 'procedure' }),
        ];
        for (const w of writes) say(`   remember → ${w.id}`);
        const rec = await m.record({
          turns: [
            { role: 'user', content: 'Can you check why the nightly sync stalls?', session: 'demo-1', speaker: 'Ana' },
            { role: 'tool', content: 'grep: lock wait timeout in sync_worker.log (12 hits)', tool: 'bash', ok: true, session: 'demo-1' },
            { role: 'assistant', content: 'The sync stalls on a lock held by the backup job; moving the backup to 03:30 fixes it.', session: 'demo-1' },
            { role: 'user', content: 'Here is the token for the dashboard: ghp_abcdefghijklmnopqrstuvwxyz0123456789', session: 'demo-1', speaker: 'Ana' },
          ],
        });
        say(`   record   → ${rec.ids.join(', ')} (${rec.redacted} credential redacted before storing)`);
        const n = await m.write({
          gesture: 'I found the sync stall at last: the backup job held the lock', context: 'nightly sync debugging with Ana',
          cognition_direction: 'check scheduled jobs first when something stalls at night', importance: 4, emotional: 3, unresolved: 2,
          tags: ['sync', 'debugging'],
        });
        say(`   write    → ${n.id} (narrative, weight ${n.weight})`);
        try {
          await m.remember({ text: 'prod key sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' });
        } catch (e) {
          say(`   remember of a credential → refused: ${(e as Error).message.split(';')[0]}`);
        }
        say('\n2. Recalling');
        for (const q of ['staging database port', '咖啡', 'why did the sync stall', 'who reviews migrations']) {
          const hits = await m.recall({ query: q, limit: 3 });
          say(`   "${q}"`);
          for (const h of hits) say(`      ${h.id.padEnd(4)} ${h.layer.padEnd(9)} ${h.text}`);
        }
        say('\n3. The raw timeline (credentials never stored)');
        for (const e of (await m.timeline({ limit: 20, order: 'asc' })).items.filter((x) => x.kind !== 'memory')) {
          say(`   ${isoMinute(e.occurredAt)} ${e.speaker ?? e.role}: ${e.content}`);
        }
        say('\nNext:');
        say('   tidepool remember "…" / recall "…"            your own memory in ~/.local/share/tidepool/memory.db');
        say('   tidepool serve --stdio                         MCP server for any MCP client');
        say('   tidepool mcp-config claude-code                 the config snippet for your client');
        say('   tidepool --help                                 every command');
        print(deps, opts, { db, space: m.space, writes, record: rec, narrative: n }, () => out.join('\n'));
      });
    },
  );
}
