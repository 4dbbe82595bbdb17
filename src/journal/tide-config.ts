/** The workspace's `memory/.tide.json`: the eleven knobs of 潮汐记忆 with the seed's defaults (SEEDS §2.4). */
import { z } from 'zod';

/** Each key's schema and default, in the seed README's order (SEEDS §2.4). */
const FIELDS = {
  hotKeepDays: z.int().min(0).max(36_500).default(7),
  promoteHits: z.int().min(1).max(10_000).default(3),
  coldPromoteHits: z.int().min(1).max(10_000).default(5),
  pinMaxDays: z.int().min(1).max(36_500).default(90),
  coldMaxFiles: z.int().min(0).max(1_000_000).default(120),
  hotMaxFiles: z.int().min(0).max(1_000_000).default(0),
  sectionWarn: z.int().min(1).max(100_000).default(30),
  searchLimit: z.int().min(1).max(200).default(8),
  searchContext: z.int().min(0).max(50).default(3),
  autoTend: z.boolean().default(true),
  agentsHint: z.boolean().default(true),
} as const;

/** Strict schema of a whole `.tide.json`; used to validate a patch from the settings page or the CLI. */
export const TideConfigSchema = z.object(FIELDS);

/** A complete tide configuration. */
export type TideConfig = z.output<typeof TideConfigSchema>;

/** Partial update of the configuration (settings page, `journal config --set`). */
export const TideConfigPatchSchema = TideConfigSchema.partial().strict();

/** The defaults written on first use (SEEDS §2.4). */
export const DEFAULT_TIDE_CONFIG: Readonly<TideConfig> = Object.freeze(TideConfigSchema.parse({}));

/** The keys in their canonical order. */
export const TIDE_CONFIG_KEYS = Object.keys(FIELDS) as (keyof TideConfig)[];

/** A parsed `.tide.json`: usable config plus what was wrong with the file, if anything. */
export interface ParsedTideConfig {
  config: TideConfig;
  /** The file's other keys, kept when the file is rewritten. */
  extra: Record<string, unknown>;
  warnings: string[];
}

/**
 * Parses the text of `.tide.json` leniently: a missing file gives the defaults, and each bad or missing key
 * falls back to its default with a warning, so one typo never stops the daily tend of that workspace.
 */
export function parseTideConfig(text: string | undefined): ParsedTideConfig {
  const warnings: string[] = [];
  if (text === undefined) return { config: { ...DEFAULT_TIDE_CONFIG }, extra: {}, warnings };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {
      config: { ...DEFAULT_TIDE_CONFIG },
      extra: {},
      warnings: ['.tide.json is not valid JSON; using defaults'],
    };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      config: { ...DEFAULT_TIDE_CONFIG },
      extra: {},
      warnings: ['.tide.json is not an object; using defaults'],
    };
  }
  const obj = raw as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const key of TIDE_CONFIG_KEYS) {
    const r = FIELDS[key].safeParse(obj[key]);
    if (r.success) config[key] = r.data;
    else {
      config[key] = DEFAULT_TIDE_CONFIG[key];
      warnings.push(
        `.tide.json ${key}: ${r.error.issues[0]?.message ?? 'invalid'}; using ${String(DEFAULT_TIDE_CONFIG[key])}`,
      );
    }
  }
  for (const [k, v] of Object.entries(obj)) {
    if (!(k in FIELDS)) {
      extra[k] = v;
      warnings.push(`.tide.json has an unknown key ${k}; kept but ignored`);
    }
  }
  return { config: config as TideConfig, extra, warnings };
}

/** Renders a configuration as the file text: the eleven keys in order, then any extra keys, two-space JSON. */
export function renderTideConfig(config: TideConfig, extra: Record<string, unknown> = {}): string {
  const out: Record<string, unknown> = {};
  for (const key of TIDE_CONFIG_KEYS) out[key] = config[key];
  for (const [k, v] of Object.entries(extra)) if (!(k in out)) out[k] = v;
  return `${JSON.stringify(out, null, 2)}\n`;
}
