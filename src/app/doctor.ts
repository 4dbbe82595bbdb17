/** `doctor`: versions, database location, index and vector status, integrity, counts, recent warnings. */
import type { AppContext } from './app-context.js';
import { readWarnings, type WarningRecord } from './warnings.js';

/** A health report of the memory. */
export interface DoctorReport {
  ok: boolean;
  node: string;
  tidepool: string;
  engine: string;
  db: string;
  schema_version: number;
  versions: Record<string, string>;
  features: Record<string, boolean>;
  integrity: string;
  space: string;
  counts: { episodes: number; narratives: number; knowledge: number; vectors: number };
  embedder: { provider: string; model: string | null; reachable: boolean | null };
  /** What failed in this space without failing the call (embedder down, corrupt columns), most recent kind first. */
  warnings: WarningRecord[];
}

/** Checks the memory and reports; `ok` is false when integrity is not "ok". */
export async function doctor(ctx: AppContext, version: string): Promise<DoctorReport> {
  const info = await ctx.store.info();
  let reachable: boolean | null = null;
  if (ctx.embedder) {
    try {
      await ctx.embedder.embed(['ping']);
      reachable = true;
    } catch {
      reachable = false;
    }
  }
  return {
    ok: info.integrity === 'ok',
    node: process.version,
    tidepool: version,
    engine: info.engine,
    db: info.location,
    schema_version: info.schemaVersion,
    versions: info.versions,
    features: info.features,
    integrity: info.integrity,
    space: ctx.space,
    counts: {
      episodes: await ctx.scope.episodes.count(),
      narratives: await ctx.scope.narratives.count(),
      knowledge: await ctx.scope.knowledge.count(),
      vectors: await ctx.scope.vectors.count(),
    },
    embedder: { provider: ctx.config.embedder.provider, model: ctx.embedder?.model ?? null, reachable },
    warnings: await readWarnings(ctx.store, ctx.space),
  };
}
