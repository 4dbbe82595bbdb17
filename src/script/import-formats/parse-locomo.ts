/** The LoCoMo benchmark's conversations (`locomo10.json`) as imported turns; annotations are never read. */
import type { ImportedTurn, ParsedTranscript } from './imported-turn.js';
import { isRecord, str } from './read-json-lines.js';
import { parseSessionDate } from './session-date.js';

/**
 * A turn's text as both LoCoMo readers store it: the text, then ` [image: <blip_caption>]` when it shared a photo,
 * each trimmed (`[image: …]` alone when the turn is only a photo).
 */
export function locomoTurnText(text: string | undefined | null, caption: string | undefined | null): string {
  const body = (text ?? '').trim();
  const shown = (caption ?? '').trim();
  if (shown === '') return body;
  return body === '' ? `[image: ${shown}]` : `${body} [image: ${shown}]`;
}

/** The n of every `session_<n>` key of a LoCoMo conversation, ascending. */
export function locomoSessionNumbers(conv: Record<string, unknown>): number[] {
  return Object.keys(conv)
    .map((k) => /^session_(\d+)$/u.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((x, y) => x - y);
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
    for (const n of locomoSessionNumbers(conv)) {
      const list = conv[`session_${n}`];
      const when = str(conv[`session_${n}_date_time`]);
      const at = when ? parseSessionDate(when) : undefined;
      if (when && at === undefined) warnings.push(`${sampleId} session ${n}: unreadable date "${when}"`);
      if (!Array.isArray(list)) continue;
      list.forEach((t: unknown, i) => {
        if (!isRecord(t)) return void skipped++;
        const speaker = str(t['speaker']) ?? 'unknown';
        const body = locomoTurnText(str(t['text']), str(t['blip_caption']));
        if (!body) return void skipped++;
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
