/** Builds the text the lexical indexes hold for each layer (segmented body, secondary field, raw text). */
import { segmentForIndex } from '../script/segment-text.js';
import type { IndexText } from '../store/port.js';

/**
 * Index text of an episode: its content, the speaker as the secondary field, and the turns just before it in its
 * session as the weaker `ctx` field — an answer often only makes sense with the question before it.
 */
export function episodeIndexText(
  content: string,
  speaker: string | null,
  previous: readonly string[] = [],
  substring = true,
): IndexText {
  return {
    body: segmentForIndex(content),
    extra: speaker ? segmentForIndex(speaker) : '',
    // An empty raw text keeps the row out of the trigram index (config index.episodeTrigram).
    raw: substring ? content : '',
    // Turn by turn, one line each: a turn's segmentation is remembered from when it was the body.
    ctx: previous.length > 0 ? previous.map(segmentForIndex).join(' \n ') : '',
  };
}

/** Index text of a narrative: all its fields, tags as the secondary field. */
export function narrativeIndexText(n: {
  content: string;
  gesture: string | null;
  context: string | null;
  moment: string | null;
  cognitionDirection: string | null;
  tags: readonly string[];
}): IndexText {
  // content already joins the four fields (SEEDS §1.4); fall back to them when content is the legacy text only.
  const fields = [n.gesture, n.context, n.moment, n.cognitionDirection].filter((s): s is string => !!s);
  const all = fields.every((f) => n.content.includes(f)) ? n.content : [n.content, ...fields].join(' | ');
  return { body: segmentForIndex(all), extra: segmentForIndex(n.tags.join(' ')), raw: all };
}

/** Index text of a knowledge entry: content plus key and subject, tags as the secondary field. */
export function knowledgeIndexText(k: { content: string; key: string | null; subject: string | null; tags: readonly string[] }): IndexText {
  const head = [k.subject, k.key?.replace(/[._:-]+/g, ' ')].filter((s): s is string => !!s).join(' ');
  const raw = head ? `${k.content} ${head}` : k.content;
  return { body: segmentForIndex(raw), extra: segmentForIndex(k.tags.join(' ')), raw: k.content };
}
