/** Chooses a sleep step's system prompt by language; the texts are TypeScript constants so `dist/` ships them. */

import { PROMPT_TEXTS_EN } from './texts-en.js';
import { PROMPT_TEXTS_ZH } from './texts-zh.js';

/** Prompt languages: English by default, Chinese as the original Tideline prompts were (config `sleep.promptLanguage`). */
export type PromptLanguage = 'en' | 'zh';

/** The steps that ask a model, in night order (DESIGN §6). */
export const PROMPT_STEPS = [
  'solidify',
  'librarian',
  'comb',
  'drift',
  'dream',
  'self_image',
  'ideas',
  'pii_watch',
] as const;

/** One model-backed sleep step. */
export type PromptStep = (typeof PROMPT_STEPS)[number];

/** The system prompt of `step` in `language`. */
export function promptText(step: PromptStep, language: PromptLanguage = 'en'): string {
  return (language === 'zh' ? PROMPT_TEXTS_ZH : PROMPT_TEXTS_EN)[step];
}
