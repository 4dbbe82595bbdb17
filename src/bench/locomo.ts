// Loads and validates any file of LoCoMo's shape (any language), never reading the dataset's own annotations.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TidepoolError } from '../core/errors.js';
import { locomoSessionNumbers, locomoTurnText } from '../script/import-formats/parse-locomo.js';
import { parseSessionDate } from '../script/import-formats/session-date.js';

/** One dialog turn; `text` carries " [image: caption]" when the turn shared an image. */
export interface BenchTurn {
  readonly diaId: string;
  readonly speaker: string;
  readonly text: string;
}

/** One session: its number n (from `session_n`), its start time and its turns in order. */
export interface BenchSession {
  readonly n: number;
  /** Epoch ms, UTC, of `session_n_date_time`. */
  readonly at: number;
  readonly turns: readonly BenchTurn[];
}

/** One conversation between speakers, as a memory would receive it. */
export interface BenchConversation {
  readonly id: string;
  readonly speakers: readonly string[];
  readonly sessions: readonly BenchSession[];
}

/** One question with its evidence turns (trimmed, distinct; ids that do not exist are kept). */
export interface BenchQuestion {
  readonly convId: string;
  readonly question: string;
  readonly evidence: readonly string[];
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  readonly category: number;
}

/** A loaded LoCoMo-shaped dataset. */
export interface BenchDataset {
  readonly conversations: readonly BenchConversation[];
  readonly questions: readonly BenchQuestion[];
}

// Only the fields read here are declared; zod drops every other key, so `observation`,
// `session_summary` and `event_summary` (LLM annotations that leak where answers are) are never used.
const TurnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string().nullish(),
  blip_caption: z.string().nullish(),
});

const QaSchema = z.object({
  question: z.string(),
  evidence: z.union([z.array(z.string()), z.string()]).nullish(),
  category: z.coerce.number().int(),
});

const SampleSchema = z.object({
  sample_id: z.union([z.string(), z.number()]).nullish(),
  conversation: z.record(z.string(), z.unknown()),
  qa: z.array(QaSchema).default([]),
});

const FileSchema = z.array(SampleSchema).min(1);

/**
 * Splits, trims and de-duplicates evidence ids. LoCoMo has ids with stray spaces and one
 * "D8:6; D9:17" that names two turns; both are repaired here, anything else stays as written.
 */
export function normaliseEvidence(raw: readonly string[] | string | null | undefined): string[] {
  const list = raw === null || raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw;
  const out = list.flatMap((e) => e.split(/[;,]/u)).map((e) => e.trim()).filter((e) => e !== '');
  return [...new Set(out)];
}

function loadConversation(id: string, conv: Record<string, unknown>): BenchConversation {
  const sessionNumbers = locomoSessionNumbers(conv).filter((n) => Array.isArray(conv[`session_${n}`]));
  const speakers = new Set<string>();
  for (const key of ['speaker_a', 'speaker_b']) if (typeof conv[key] === 'string') speakers.add(conv[key]);
  const sessions = sessionNumbers.map((n): BenchSession => {
    const field = `${id}.session_${n}_date_time`;
    const dateText = conv[`session_${n}_date_time`];
    const at = typeof dateText === 'string' ? parseSessionDate(dateText) : undefined;
    if (at === undefined) {
      throw new TidepoolError('invalid_input', `unreadable session date: ${JSON.stringify(dateText)}`, { field });
    }
    const parsed = z.array(TurnSchema).safeParse(conv[`session_${n}`]);
    if (!parsed.success) {
      throw new TidepoolError('invalid_input', `bad turns in ${id}.session_${n}: ${parsed.error.message}`, {
        field: `${id}.session_${n}`,
      });
    }
    const turns = parsed.data.map((t) => {
      speakers.add(t.speaker);
      return { diaId: t.dia_id.trim(), speaker: t.speaker, text: locomoTurnText(t.text, t.blip_caption) };
    });
    return { n, at, turns };
  });
  return { id, speakers: [...speakers], sessions };
}

/** Validates parsed JSON of LoCoMo's shape; throws `invalid_input` naming the broken field. */
export function parseLocomo(json: unknown): BenchDataset {
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) {
    throw new TidepoolError('invalid_input', `not a LoCoMo-shaped file: ${parsed.error.message}`, {
      details: { issues: parsed.error.issues.slice(0, 5) },
    });
  }
  const conversations: BenchConversation[] = [];
  const questions: BenchQuestion[] = [];
  parsed.data.forEach((sample, i) => {
    const id = sample.sample_id === null || sample.sample_id === undefined ? `conv-${i}` : String(sample.sample_id);
    conversations.push(loadConversation(id, sample.conversation));
    for (const qa of sample.qa) {
      questions.push({ convId: id, question: qa.question, evidence: normaliseEvidence(qa.evidence), category: qa.category });
    }
  });
  return { conversations, questions };
}

/**
 * Reads and validates a LoCoMo-shaped JSON file (UTF-8). Throws `not_found` for a missing file,
 * `io_failed` when it cannot be read and `invalid_input` when it is not LoCoMo-shaped JSON.
 */
export function loadLocomo(path: string): BenchDataset {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new TidepoolError(missing ? 'not_found' : 'io_failed', `cannot read LoCoMo file ${path}`, { field: 'data', cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new TidepoolError('invalid_input', `${path} is not JSON`, { field: 'data', cause });
  }
  return parseLocomo(json);
}
