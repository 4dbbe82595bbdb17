/** State shared by the jobs of one script run: keyword extraction is the costliest step, so it runs once per text. */
import { createKeywordExtractor } from '../script/keywords.js';
import { loadStopwords } from '../script/stopwords.js';
import { topicText } from '../script/topic-clusters.js';
import type { NarrativeTextRow } from '../store/port.js';

/** One run of one or more script jobs. */
export interface ScriptRun {
  /** Keywords of a text, memoised by the text. */
  extract(text: string): string[];
  /** Keywords of a narrative (content, gesture, context, cognition direction), memoised by that text. */
  narrativeKeywords(n: NarrativeTextRow): string[];
  /** The text a narrative's keywords come from. */
  narrativeText(n: NarrativeTextRow): string;
}

/** A fresh run; its caches live as long as the run. */
export function createScriptRun(): ScriptRun {
  const extractor = createKeywordExtractor({ stopwords: loadStopwords() });
  const byText = new Map<string, string[]>();
  const extract = (text: string): string[] => {
    let kw = byText.get(text);
    if (!kw) {
      kw = extractor(text);
      byText.set(text, kw);
    }
    return kw;
  };
  const narrativeText = (n: NarrativeTextRow): string =>
    // `content` already joins gesture | context | moment | direction (SEEDS §1.4); a field it holds is not read twice.
    topicText({
      content: n.content,
      gesture: n.gesture && !n.content.includes(n.gesture) ? n.gesture : null,
      context: n.context && !n.content.includes(n.context) ? n.context : null,
      cognitionDirection:
        n.cognitionDirection && !n.content.includes(n.cognitionDirection) ? n.cognitionDirection : null,
    });
  return {
    extract,
    narrativeText,
    narrativeKeywords: (n) => extract(narrativeText(n)),
  };
}
