/** The journal's database side (JournalHost) over the Store: workspaces, archived days, tend state, sections as episodes. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { JournalHost, JournalSection } from '../journal/journal-port.js';
import type { NewEpisode } from '../store/port.js';
import { spaceTransaction, type AppContext } from './app-context.js';
import { embedItems } from './embed-items.js';
import { redact } from './guard-secrets.js';
import { episodeIndexText } from './index-text.js';

/** `ref` of a journal episode: one per section key per workspace, so a re-index recognises what it stored before. */
export function journalRef(root: string, key: string): string {
  return `journal:${root}:${key}`;
}

/** What a section's episode says about where it lies; compared to tell a tier move from no change at all. */
function placeMeta(root: string, s: JournalSection): Record<string, unknown> {
  return {
    root,
    file: s.file,
    heading: s.heading,
    tier: s.tier,
    line: s.line,
    key: s.key,
    sha256: s.sha256,
    ...(s.date !== undefined ? { date: s.date } : {}),
  };
}

function sameMeta(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}

/**
 * JournalHost bound to one memory space. Sections become durable `journal` episodes (source `journal`) that core
 * `recall` finds; credentials in hand-written files are redacted on the way in, as for any automatic capture (DESIGN §10).
 */
export class StoreJournalHost implements JournalHost {
  readonly #ctx: AppContext;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
  }

  async registerWorkspace(root: string): Promise<void> {
    const at = this.#ctx.clock.now();
    await spaceTransaction(this.#ctx, async (scope, tx) => {
      await tx.spaces.ensure(this.#ctx.space, at);
      await scope.journal.registerWorkspace({ root, title: path.basename(root) || root, at });
    });
  }

  async listWorkspaces(): Promise<string[]> {
    return (await this.#ctx.scope.journal.workspaces()).map((w) => w.root);
  }

  async archiveDay(root: string, date: string, content: string): Promise<void> {
    const sha256 = createHash('sha256').update(content).digest('hex');
    const at = this.#ctx.clock.now();
    await spaceTransaction(this.#ctx, async (scope, tx) => {
      await tx.spaces.ensure(this.#ctx.space, at);
      await scope.journal.archiveDay({ root, day: date, content, sha256, at });
    });
  }

  async restoreDay(root: string, date: string): Promise<string | undefined> {
    const row = await this.#ctx.scope.journal.archivedDay(root, date);
    if (!row) return undefined;
    await this.#ctx.scope.journal.markRestored(root, date, this.#ctx.clock.now());
    return row.content;
  }

  async listArchivedDays(root: string): Promise<string[]> {
    return this.#ctx.scope.journal.archivedDays(root);
  }

  /**
   * Replaces the workspace's journal episodes with `sections`: unchanged text keeps its episode (and its vector, its
   * attention history), a tier move only rewrites meta, changed text is re-inserted. Episodes of days that went to the
   * archive database stay, marked `tier: 'archived'`, so recall still reaches them; other vanished sections go.
   */
  async indexSections(root: string, sections: readonly JournalSection[]): Promise<void> {
    const { store, space, clock } = this.#ctx;
    const now = clock.now();
    const prefix = journalRef(root, '');
    let redacted = 0;
    const inserted = await store.transaction(async (tx) => {
      await tx.spaces.ensure(space, now);
      const existing = new Map((await tx.forSpace(space).journal.episodesByRefPrefix(prefix)).map((e) => [e.ref, e]));
      const archived = new Set(await tx.forSpace(space).journal.archivedDays(root));
      const rows: NewEpisode[] = [];
      const drop: number[] = [];
      const seen = new Set<string>();
      for (const s of sections) {
        const ref = journalRef(root, s.key);
        if (seen.has(ref)) continue;
        seen.add(ref);
        const meta = placeMeta(root, s);
        const old = existing.get(ref);
        const occurredAt = s.occurredAt ?? old?.occurredAt ?? now;
        if (old && old.meta.sha256 === s.sha256) {
          if (!sameMeta(old.meta, meta) || old.occurredAt !== occurredAt)
            await tx.forSpace(space).journal.moveEpisode(old.id, { meta, occurredAt });
          continue;
        }
        if (old) drop.push(old.id);
        const r = redact(`${s.heading}\n${s.text}`);
        redacted += r.count;
        rows.push({
          kind: 'journal',
          role: null,
          speaker: null,
          content: r.text,
          session: null,
          tool: null,
          ok: null,
          source: 'journal',
          ref,
          meta,
          durable: true,
          occurredAt,
          createdAt: now,
          embedPending: true,
          index: episodeIndexText(r.text, null),
        });
      }
      for (const [ref, old] of existing) {
        if (seen.has(ref)) continue;
        const date = typeof old.meta.date === 'string' ? old.meta.date : undefined;
        if (date !== undefined && archived.has(date)) {
          if (old.meta.tier !== 'archived')
            await tx.forSpace(space).journal.moveEpisode(old.id, {
              meta: { ...old.meta, tier: 'archived' },
              occurredAt: old.occurredAt,
            });
        } else {
          drop.push(old.id);
        }
      }
      // Delete before insert: a changed section reuses its ref, which is unique per space.
      if (drop.length > 0) await tx.forSpace(space).episodes.delete(drop);
      const { ids } = await tx.forSpace(space).episodes.insertMany(rows);
      return (await tx.forSpace(space).episodes.getMany(ids)).map((e) => ({ id: e.id, text: e.content }));
    });
    if (redacted > 0)
      this.#ctx.warn(`journal: ${redacted} credential(s) redacted from indexed sections of ${root}`);
    await embedItems(this.#ctx, 'episode', inserted);
  }

  async getTendState(root: string): Promise<string | undefined> {
    return (await this.#ctx.scope.journal.workspace(root))?.lastTendedDay ?? undefined;
  }

  async setTendState(root: string, day: string): Promise<void> {
    const at = this.#ctx.clock.now();
    await spaceTransaction(this.#ctx, async (scope, tx) => {
      await tx.spaces.ensure(this.#ctx.space, at);
      await scope.journal.setTendState(root, day, at);
    });
  }
}
