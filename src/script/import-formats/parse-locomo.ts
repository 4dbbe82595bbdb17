/** The LoCoMo benchmark's conversations (`locomo10.json`) as imported turns; annotations are never read. */
import type { ImportedTurn, ParsedTranscript } from './imported-turn.js';
import { isRecord, str } from './read-json-lines.js';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * "1:56 pm on 8 May, 2023" → epoch ms, read as UTC (LoCoMo gives no zone). Undefined when it does not match.
 */
export function parseLocomoDateTime(text: string): number | undefined {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(text);
  if (!m) return undefined;
  const month = MONTHS.findIndex((name) => name.startsWith(m[5]!.toLowerCase()) && m[5]!.length >= 3);
  if (month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/**
 * Reads a LoCoMo JSON file: an array of samples (or one sample) with `sample_id` and `conversation` holding
 * `speaker_a`, `speaker_b`, `session_<n>` turn lists and `session_<n>_date_time`. Only the dialogue is read:
 * `qa`, `observation`, `session_summary` and `event_summary` are LLM-made annotations that would leak answers.
 *
 * Both speakers are people, and neither is the agent whose memory this is, so both get `role: 'user'` with
 * `speaker` = their name (`meta.side` says a or b); calling one of them "assistant" would make consolidation
 * attribute a person's life to the agent. Every turn of a session carries the session's date and time (turn order
 * is the ref order). A shared photo adds `[image: <blip_caption>]`. Refs are `locomo:<sample_id>:<dia_id>`.
 */
export function parseLocomo(text: string): ParsedTranscript {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { turns: [], skipped: 0, warnings: ['not JSON'] };
  }
  const samples = Array.isArray(data) ? data : [data];
  const turns: ImportedTurn[] = [];
  const warnings: string[] = [];
  let skipped = 0;
  samples.forEach((sample: unknown, si) => {
    const conv = isRecord(sample) ? sample['conversation'] : undefined;
    if (!isRecord(sample) || !isRecord(conv)) return void warnings.push(`sample ${si}: no conversation`);
    const sampleId = str(sample['sample_id']) ?? `sample${si}`;
    const a = str(conv['speaker_a']);
    const seen = new Map<string, number>();
    const sessions = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((x, y) => x - y);
    for (const n of sessions) {
      const list = conv[`session_${n}`];
      const when = str(conv[`session_${n}_date_time`]);
      const at = when ? parseLocomoDateTime(when) : undefined;
      if (when && at === undefined) warnings.push(`${sampleId} session ${n}: unreadable date "${when}"`);
      if (!Array.isArray(list)) continue;
      list.forEach((t: unknown, i) => {
        if (!isRecord(t)) return void skipped++;
        const speaker = str(t['speaker']) ?? 'unknown';
        const caption = str(t['blip_caption']);
        const body = [str(t['text']) ?? '', caption ? `[image: ${caption}]` : ''].filter(Boolean).join(' ');
        if (!body.trim()) return void skipped++;
        const dia = (str(t['dia_id']) ?? `D${n}:${i + 1}`).replace(/\s+/g, '');
        const dup = seen.get(dia) ?? 0;
        seen.set(dia, dup + 1);
        turns.push({
          role: 'user',
          speaker,
          content: body,
          session: `${sampleId}:session_${n}`,
          ...(at !== undefined ? { at } : {}),
          ref: `locomo:${sampleId}:${dia}${dup > 0 ? `#${dup + 1}` : ''}`,
          meta: {
            sampleId,
            sessionNumber: n,
            diaId: dia,
            side: speaker === a ? 'a' : 'b',
            ...(Array.isArray(t['img_url']) ? { imgUrl: t['img_url'] } : {}),
          },
        });
      });
    }
  });
  return { turns, skipped, warnings };
}
