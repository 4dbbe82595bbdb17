import { describe, expect, it } from 'vitest';
import {
  buildSelfImagePrompt,
  parseSelfImagePacket,
  selfImageDue,
  selfImageResponseSchema,
  SELF_IMAGE_MAX_ENTRIES,
} from './self-image-prompt.js';

describe('self-image prompt', () => {
  it('is due from 5 knowledge entries on', () => {
    expect(selfImageDue(4)).toBe(false);
    expect(selfImageDue(5)).toBe(true);
  });

  it('shows at most the strongest entries, one `kind: content` line each, strongest first', () => {
    const knowledge = Array.from({ length: 50 }, (_, i) => ({ kind: 'fact', content: `f${i}` }));
    const shown = parseSelfImagePacket(buildSelfImagePrompt({ knowledge }).messages[0]?.content ?? '');
    expect(shown).toHaveLength(SELF_IMAGE_MAX_ENTRIES);
    expect(shown[0]).toEqual({ kind: 'fact', content: 'f0' });
  });

  it('keeps an entry on one line and reads it back', () => {
    const knowledge = [{ kind: 'preference', content: 'Mara: short notes\nno emoji' }];
    const text = buildSelfImagePrompt({ knowledge }).messages[0]?.content ?? '';
    expect(text).toBe('preference: Mara: short notes / no emoji');
    expect(parseSelfImagePacket(text)).toEqual([{ kind: 'preference', content: 'Mara: short notes / no emoji' }]);
  });

  it('requires all three parts', () => {
    expect(selfImageResponseSchema.safeParse({ works_on: 'a', user_wants: 'b' }).success).toBe(false);
  });
});
