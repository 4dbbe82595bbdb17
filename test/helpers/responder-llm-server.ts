/**
 * Test helper: an OpenAI-compatible chat endpoint on 127.0.0.1 that answers every sleep packet with the
 * `ResponderModel` of the sleep tests, so a night run by a child process (`tidepool sleep --model openai:…`) does
 * every step. Hooks around each answer let a test kill the child at a chosen request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelMessage } from '../../src/sleep/llm/model.js';
import { PROMPT_STEPS, promptText } from '../../src/sleep/prompts/prompt-texts.js';
import { ResponderModel } from '../sleep-fixtures.js';

/** Called with the 1-based number of the request, before and after its answer is sent. */
export interface ResponderHooks {
  beforeAnswer?(n: number, step: string): void | Promise<void>;
  afterAnswer?(n: number, step: string): void | Promise<void>;
}

/** A running responder: its base URL (what `TIDEPOOL_OPENAI_BASE_URL` takes) and the steps it answered. */
export interface ResponderServer {
  url: string;
  /** Steps of the requests received, in order. */
  steps: string[];
  hooks: ResponderHooks;
  close(): Promise<void>;
}

/** Starts the responder; `delayMs` holds each answer back, so a night lasts long enough to work beside it. */
export async function startResponderServer(o: { delayMs?: number } = {}): Promise<ResponderServer> {
  const model = new ResponderModel();
  const steps: string[] = [];
  const hooks: ResponderHooks = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          model: string;
          messages: Array<{ role: string; content: string }>;
          max_tokens?: number;
        };
        const system = body.messages[0]?.content ?? '';
        const step = PROMPT_STEPS.find((s) => promptText(s) === system) ?? '?';
        steps.push(step);
        const n = steps.length;
        await hooks.beforeAnswer?.(n, step);
        if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
        const messages = body.messages.slice(1) as ModelMessage[];
        const answer = await model.complete({ system, messages, maxTokens: body.max_tokens ?? 1000, step });
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-responder-${n}`,
            object: 'chat.completion',
            created: 1_700_000_000,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: answer.text, refusal: null }, finish_reason: 'stop', logprobs: null }],
            usage: {
              prompt_tokens: answer.inputTokens,
              completion_tokens: answer.outputTokens,
              total_tokens: answer.inputTokens + answer.outputTokens,
            },
          }),
        );
        await hooks.afterAnswer?.(n, step);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    steps,
    hooks,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e === undefined ? resolve() : reject(e)));
      }),
  };
}
