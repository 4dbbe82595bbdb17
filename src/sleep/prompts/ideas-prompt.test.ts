import { describe, expect, it } from 'vitest';
import { acceptIdeas, buildIdeasPrompt, ideasResponseSchema } from './ideas-prompt.js';

const problems = ['k1', 'k2', 'k3', 'k4'].map((id) => ({ id, content: `problem ${id}` }));

describe('ideas prompt', () => {
  it('asks about at most 3 open problems', () => {
    const payload = JSON.parse(buildIdeasPrompt({ problems }).messages[0]?.content ?? '') as {
      problems: unknown[];
    };
    expect(payload.problems).toHaveLength(3);
  });

  it('keeps one idea per shown problem, with the problem text for the briefing', () => {
    const answer = ideasResponseSchema.parse({
      ideas: [
        { problem: 'k1', next_step: 'try A' },
        { problem: 'k1', next_step: 'try B' },
        { problem: 'k4', next_step: 'not shown' },
        { problem: 'k2', next_step: 'try C' },
      ],
    });
    expect(acceptIdeas(answer, { problems })).toEqual({
      ideas: [
        { problemId: 'k1', problem: 'problem k1', nextStep: 'try A' },
        { problemId: 'k2', problem: 'problem k2', nextStep: 'try C' },
      ],
      dropped: 2,
    });
  });
});
