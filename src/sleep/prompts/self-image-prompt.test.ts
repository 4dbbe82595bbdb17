import { describe, expect, it } from 'vitest';
import {
  buildSelfImagePrompt,
  selfImageDue,
  selfImageResponseSchema,
  SELF_IMAGE_MAX_ENTRIES,
} from './self-image-prompt.js';

describe('self-image prompt', () => {
  it('is due from 5 knowledge entries on', () => {
    expect(selfImageDue(4)).toBe(false);
    expect(selfImageDue(5)).toBe(true);
  });

  it('shows at most the strongest 40 entries', () => {
    const knowledge = Array.from({ length: 50 }, (_, i) => ({ kind: 'fact', content: `f${i}` }));
    const payload = JSON.parse(buildSelfImagePrompt({ knowledge }).messages[0]?.content ?? '') as {
      knowledge: unknown[];
    };
    expect(payload.knowledge).toHaveLength(SELF_IMAGE_MAX_ENTRIES);
  });

  it('requires all three parts', () => {
    expect(selfImageResponseSchema.safeParse({ works_on: 'a', user_wants: 'b' }).success).toBe(false);
  });
});
