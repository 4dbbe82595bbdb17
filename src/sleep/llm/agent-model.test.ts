import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentModel } from './agent-model.js';
import { askStructured } from './ask-structured.js';

const prompt = {
  system: 'You are the librarian.',
  messages: [{ role: 'user' as const, content: '{"episodes":[]}' }],
};
const schema = z.object({ proposals: z.array(z.unknown()) });

describe('AgentModel', () => {
  it('hands out a work packet and continues the night with the submitted answer', async () => {
    const agent = new AgentModel();
    const pending = askStructured(agent, prompt, schema, { step: 'librarian', maxTokens: 300 });
    const packet = await agent.waitForPacket(1000);
    expect(packet).toMatchObject({
      step: 'librarian',
      system: 'You are the librarian.',
      maxTokens: 300,
      json: true,
    });
    expect(agent.next()).toEqual(packet);
    expect(agent.submit(packet?.id ?? '', '{"proposals":[]}')).toEqual({ kind: 'accepted' });
    const r = await pending;
    expect(r).toMatchObject({ kind: 'ok', value: { proposals: [] } });
    expect(r.tokens.input).toBeGreaterThan(0);
    expect(agent.pendingCount()).toBe(0);
  });

  it('refuses an answer for an unknown packet', () => {
    expect(new AgentModel().submit('packet-9', '{}')).toEqual({ kind: 'unknown_packet', id: 'packet-9' });
  });

  it('reports no packet when none comes in time', async () => {
    expect(await new AgentModel().waitForPacket(10)).toBeUndefined();
  });

  it('skips the step when the agent does not answer in time', async () => {
    const agent = new AgentModel({ answerTimeoutMs: 20 });
    const r = await askStructured(agent, prompt, schema, { step: 'comb', maxTokens: 10 });
    expect(r.kind).toBe('skipped');
    if (r.kind === 'skipped') expect(r.reason).toMatch(/did not answer/);
  });

  it('cancels every waiting packet', async () => {
    const agent = new AgentModel();
    const pending = agent.complete({ ...prompt, maxTokens: 10 });
    agent.cancelAll('night stopped');
    await expect(pending).rejects.toThrow(/cancelled: night stopped/);
  });
});
