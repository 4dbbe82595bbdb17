import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { countTokens } from '../../core/token-count.js';
import { parseDroppingInvalidItems } from '../llm/ask-structured.js';
import { combResponseSchema } from './comb-prompt.js';
import { dreamResponseSchema } from './dream-prompt.js';
import { driftResponseSchema } from './drift-prompt.js';
import { ideasResponseSchema } from './ideas-prompt.js';
import { librarianResponseSchema } from './librarian-prompt.js';
import { piiWatchResponseSchema } from './pii-watch-prompt.js';
import { estimatePromptTokens } from './prompt.js';
import { PROMPT_STEPS, promptText, type PromptStep } from './prompt-texts.js';
import { selfImageResponseSchema } from './self-image-prompt.js';
import { solidifyResponseSchema } from './solidify-prompt.js';

const SCHEMAS: Record<PromptStep, z.ZodType> = {
  solidify: solidifyResponseSchema,
  librarian: librarianResponseSchema,
  comb: combResponseSchema,
  drift: driftResponseSchema,
  dream: dreamResponseSchema,
  self_image: selfImageResponseSchema,
  ideas: ideasResponseSchema,
  pii_watch: piiWatchResponseSchema,
};

/**
 * Example answers: lines that are a JSON object, or a label ending in a colon followed by one
 * ("Nothing found: {...}"). Shape sketches inside prose ("… entry. {"op":"merge","ids":[…]}") are not examples.
 */
function examples(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('}') && (line.startsWith('{') || /^[^{]*[:：] ?\{/.test(line)))
    .map((line) => line.slice(line.indexOf('{')));
}

describe('prompt texts', () => {
  for (const language of ['en', 'zh'] as const) {
    for (const step of PROMPT_STEPS) {
      it(`${language}/${step}: every example answer parses with the step's schema, nothing dropped`, () => {
        const found = examples(promptText(step, language));
        expect(found.length).toBeGreaterThan(0);
        for (const ex of found) {
          const r = parseDroppingInvalidItems(JSON.parse(ex) as unknown, SCHEMAS[step]);
          expect(r, ex).toMatchObject({ ok: true, dropped: 0 });
        }
      });
    }
  }

  it('uses English by default and Chinese on request', () => {
    expect(promptText('dream')).toBe(promptText('dream', 'en'));
    expect(promptText('dream', 'en')).not.toMatch(/[\u4e00-\u9fff]/);
    for (const step of PROMPT_STEPS) expect(promptText(step, 'zh')).toMatch(/[\u4e00-\u9fff]/);
  });

  it('keeps every system prompt small (the whole night aims below Tideline 7-17k tokens a day)', () => {
    for (const step of PROMPT_STEPS) {
      for (const language of ['en', 'zh'] as const)
        expect(countTokens(promptText(step, language))).toBeLessThan(700);
    }
  });

  it('estimates a packet as prompt tokens plus the answer cap', () => {
    const prompt = {
      system: promptText('ideas'),
      messages: [{ role: 'user' as const, content: '{"problems":[]}' }],
      maxTokens: 300,
    };
    const est = estimatePromptTokens(prompt);
    expect(est).toBeGreaterThan(300 + countTokens(prompt.system));
    expect(est).toBeLessThan(300 + countTokens(prompt.system) + 30);
  });
});
