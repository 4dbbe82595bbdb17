/** One entry point for the text transcript formats; Tideline databases go through `readTidelineDb`. */
import type { ImportFormat, ParsedTranscript, ParseOptions } from './imported-turn.js';
import { parseClaudeCode } from './parse-claude-code.js';
import { parseCodex } from './parse-codex.js';
import { parseHermes } from './parse-hermes.js';
import { parseLocomo } from './parse-locomo.js';
import { parseMarkdownChat } from './parse-markdown-chat.js';
import { parseOpenAiJsonl } from './parse-openai-jsonl.js';

/** Parses `text` in a text format (every format but `tideline`). */
export function parseTranscript(
  format: Exclude<ImportFormat, 'tideline'>,
  text: string,
  opts: ParseOptions,
): ParsedTranscript {
  switch (format) {
    case 'claude-code':
      return parseClaudeCode(text, opts);
    case 'codex':
      return parseCodex(text, opts);
    case 'hermes':
      return parseHermes(text, opts);
    case 'openai-jsonl':
      return parseOpenAiJsonl(text, opts);
    case 'markdown':
      return parseMarkdownChat(text, opts);
    case 'locomo':
      return parseLocomo(text);
  }
}
