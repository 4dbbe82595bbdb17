import { describe, expect, it } from 'vitest';
import { isTidepoolError } from '../../core/errors.js';
import { ScriptedModel } from './scripted-model.js';

const req = (step?: string) => ({
  system: 's',
  messages: [{ role: 'user' as const, content: 'hello there' }],
  maxTokens: 10,
  step,
});

describe('ScriptedModel', () => {
  it('answers each step from its own queue, in order, then from the * queue', async () => {
    const m = new ScriptedModel({ dream: ['d1', 'd2'], '*': ['any'] });
    expect((await m.complete(req('dream'))).text).toBe('d1');
    expect((await m.complete(req('comb'))).text).toBe('any');
    expect((await m.complete(req('dream'))).text).toBe('d2');
    expect(m.calls.map((c) => c.step)).toEqual(['dream', 'comb', 'dream']);
    expect(m.remaining()).toBe(0);
  });

  it('uses exact token counts when given and tokenizer estimates otherwise', async () => {
    const m = new ScriptedModel({ a: [{ text: 'x', inputTokens: 7, outputTokens: 2 }], b: ['two words'] });
    expect(await m.complete(req('a'))).toEqual({ text: 'x', inputTokens: 7, outputTokens: 2 });
    const b = await m.complete(req('b'));
    expect(b.outputTokens).toBe(2);
    expect(b.inputTokens).toBeGreaterThan(2);
  });

  it('throws llm_failed when the script is exhausted or an answer is a failure', async () => {
    const m = new ScriptedModel({ a: [{ fail: 'boom' }] });
    m.push('b', 'later');
    await expect(m.complete(req('a'))).rejects.toSatisfy((e) => isTidepoolError(e, 'llm_failed'));
    await expect(m.complete(req('a'))).rejects.toThrow(/no answer left for step "a"/);
    expect((await m.complete(req('b'))).text).toBe('later');
  });
});
