import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { askStructured, checkAnswer, parseDroppingInvalidItems } from './ask-structured.js';
import { extractJson } from './extract-json.js';
import { ScriptedModel } from './scripted-model.js';

const schema = z.object({
  items: z.array(z.object({ id: z.string(), n: z.number() })),
  note: z.string().optional(),
});
const prompt = { system: 'sys', messages: [{ role: 'user' as const, content: 'go' }] };
const opts = { step: 'librarian', maxTokens: 100 };

describe('extractJson', () => {
  it.each([
    ['plain JSON', '{"a":1}', { a: 1 }],
    ['a ```json fence after prose', 'Here it is:\n```json\n{"a":2}\n```\nDone.', { a: 2 }],
    ['a bare fence', '```\n[1,2]\n```', [1, 2]],
    ['an object inside prose', 'Result: {"a":"x}y","b":[3]} hope that helps', { a: 'x}y', b: [3] }],
    ['an answer after <think> reasoning', '<think>maybe {"a":0}</think>{"a":5}', { a: 5 }],
  ])('finds %s', (_name, text, value) => {
    expect(extractJson(text)).toEqual({ ok: true, value });
  });

  it('reports empty answers and answers without JSON', () => {
    expect(extractJson('  ')).toEqual({ ok: false, reason: 'the answer is empty' });
    expect(extractJson('I cannot help {with that')).toMatchObject({ ok: false });
  });
});

describe('parseDroppingInvalidItems', () => {
  it('drops invalid array items one by one and counts them', () => {
    const r = parseDroppingInvalidItems(
      { items: [{ id: 'a', n: 1 }, { id: 'b', n: 'two' }, { id: 3 }, { id: 'd', n: 4 }] },
      schema,
    );
    expect(r).toEqual({
      ok: true,
      value: {
        items: [
          { id: 'a', n: 1 },
          { id: 'd', n: 4 },
        ],
      },
      dropped: 2,
    });
  });

  it('fails when an issue lies outside any array item', () => {
    const r = parseDroppingInvalidItems({ items: [{ id: 'a', n: 1 }], note: 5 }, schema);
    expect(r.ok).toBe(false);
  });

  it('fails when every item of an array was invalid', () => {
    const r = parseDroppingInvalidItems({ items: [{ id: 1 }, { n: 2 }] }, schema);
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.error).toMatch(/all 2 items were invalid/);
  });

  it('accepts a valid empty list', () => {
    expect(parseDroppingInvalidItems({ items: [] }, schema)).toEqual({
      ok: true,
      value: { items: [] },
      dropped: 0,
    });
  });

  it('does not modify the value it was given', () => {
    const value = { items: [{ id: 'a', n: 1 }, { id: 'b' }] };
    parseDroppingInvalidItems(value, schema);
    expect(value.items).toHaveLength(2);
  });
});

describe('askStructured', () => {
  it('returns the value after one good answer, with tokens and the drop count', async () => {
    const model = new ScriptedModel({
      librarian: [{ text: '{"items":[{"id":"a","n":1},{"id":"b"}]}', inputTokens: 50, outputTokens: 9 }],
    });
    const r = await askStructured(model, prompt, schema, opts);
    expect(r).toEqual({
      kind: 'ok',
      value: { items: [{ id: 'a', n: 1 }] },
      tokens: { input: 50, output: 9 },
      attempts: 1,
      dropped: 1,
    });
    expect(model.calls[0]?.request).toMatchObject({ step: 'librarian', json: true, maxTokens: 100 });
  });

  it('retries once with the validation error and succeeds on the second answer', async () => {
    const model = new ScriptedModel({ librarian: ['{"items":"many"}', '{"items":[]}'] });
    const r = await askStructured(model, prompt, schema, opts);
    expect(r).toMatchObject({ kind: 'ok', attempts: 2, value: { items: [] } });
    const retry = model.calls[1]?.request.messages ?? [];
    expect(retry.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry[2]?.content).toMatch(/Your answer was rejected: .*expected array/s);
  });

  it('skips after the second bad answer and never calls a third time', async () => {
    const model = new ScriptedModel({ librarian: ['nope', 'still nope', '{"items":[]}'] });
    const r = await askStructured(model, prompt, schema, opts);
    expect(r).toMatchObject({ kind: 'skipped', attempts: 2 });
    expect(model.calls).toHaveLength(2);
    expect(model.remaining()).toBe(1);
  });

  it('skips at once when the model throws', async () => {
    const model = new ScriptedModel({ librarian: [{ fail: 'connection refused' }] });
    const r = await askStructured(model, prompt, schema, opts);
    expect(r).toMatchObject({ kind: 'skipped', attempts: 1, tokens: { input: 0, output: 0 } });
    if (r.kind === 'skipped') expect(r.reason).toMatch(/^model_error: .*connection refused/);
  });

  it('checkAnswer validates a submission the same way', () => {
    expect(checkAnswer('```json\n{"items":[{"id":"x","n":0}]}\n```', schema)).toEqual({
      ok: true,
      value: { items: [{ id: 'x', n: 0 }] },
      dropped: 0,
    });
  });
});
