import { describe, expect, it } from 'vitest';
import { isTidepoolError } from '../../core/errors.js';
import type { ModelRequest } from './model.js';
import { SamplingModel } from './sampling-model.js';
import { estimateRequestTokens } from './token-estimate.js';

const req: ModelRequest = {
  system: 'be brief',
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 20,
  step: 'dream',
};

describe('SamplingModel', () => {
  it('passes the request to the sampling function and keeps its token counts', async () => {
    const seen: ModelRequest[] = [];
    const m = new SamplingModel((r) => {
      seen.push(r);
      return Promise.resolve({ text: 'ok', inputTokens: 11, outputTokens: 1 });
    });
    expect(await m.complete(req)).toEqual({ text: 'ok', inputTokens: 11, outputTokens: 1 });
    expect(seen).toEqual([req]);
    expect(m.name).toBe('sampling');
  });

  it('estimates tokens when the client reports none (MCP sampling has no usage)', async () => {
    const m = new SamplingModel(() => Promise.resolve({ text: 'a short answer' }));
    const r = await m.complete(req);
    expect(r.inputTokens).toBe(estimateRequestTokens(req));
    expect(r.outputTokens).toBeGreaterThan(0);
  });

  it('wraps a failing client as llm_failed', async () => {
    const m = new SamplingModel(() => Promise.reject(new Error('client refused sampling')));
    await expect(m.complete(req)).rejects.toSatisfy((e) => isTidepoolError(e, 'llm_failed'));
  });
});
