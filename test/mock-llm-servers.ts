/** Mock OpenAI-compatible and Anthropic servers on 127.0.0.1 for driving the real SDKs in tests (STYLE §7). */

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One canned reply: answer text (usage made up from lengths), text with explicit usage (`null` = the server sends
 * none), or an HTTP error. Errors carry `retry-after-ms: 5` by default so the SDKs retry without waiting seconds.
 */
export type MockAnswer =
  | string
  | { text: string; usage?: Usage | null }
  | { status: number; body?: unknown; headers?: Record<string, string> };

/** A request the mock received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A running mock: its base URL (what the SDK takes as `baseURL`), the requests it saw, and its answer queue. */
export interface MockLlmServer {
  url: string;
  requests: RecordedRequest[];
  push(...answers: MockAnswer[]): void;
  /** Canned answers not yet used. */
  pending(): number;
  close(): Promise<void>;
}

type Protocol = 'openai' | 'anthropic';

/** Starts a mock of `POST /v1/chat/completions`; `url` ends in `/v1` like OpenAI's base URL. */
export function startMockOpenAiServer(answers: MockAnswer[] = []): Promise<MockLlmServer> {
  return start('openai', answers);
}

/** Starts a mock of `POST /v1/messages`; `url` is the origin, as Anthropic's base URL is. */
export function startMockAnthropicServer(answers: MockAnswer[] = []): Promise<MockLlmServer> {
  return start('anthropic', answers);
}

async function start(protocol: Protocol, initial: MockAnswer[]): Promise<MockLlmServer> {
  const queue = [...initial];
  const requests: RecordedRequest[] = [];
  const expectedPath = protocol === 'openai' ? '/v1/chat/completions' : '/v1/messages';
  let seq = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text; a test may want to see it
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || path !== expectedPath) {
        send(404, errorBody(protocol, `no route ${req.method ?? ''} ${path}`));
        return;
      }
      const answer = queue.shift();
      if (answer === undefined) {
        send(500, errorBody(protocol, 'mock has no canned answer left'), { 'retry-after-ms': '5' });
        return;
      }
      if (typeof answer === 'object' && 'status' in answer) {
        send(answer.status, answer.body ?? errorBody(protocol, `mock error ${answer.status}`), {
          'retry-after-ms': '5',
          ...answer.headers,
        });
        return;
      }
      seq += 1;
      const text = typeof answer === 'string' ? answer : answer.text;
      const usage =
        typeof answer === 'string' || answer.usage === undefined
          ? { input: Math.ceil(raw.length / 4), output: Math.ceil(text.length / 4) }
          : answer.usage;
      const model =
        typeof body === 'object' && body !== null && 'model' in body ? String(body.model) : 'mock';
      send(
        200,
        protocol === 'openai'
          ? openAiReply(seq, model, text, usage)
          : anthropicReply(seq, model, text, usage),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
    requests,
    push: (...answers) => queue.push(...answers),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e === undefined ? resolve() : reject(e)));
      }),
  };
}

/** Tokens of a reply; `cached`: of `input`, served from the provider's prompt cache. */
type Usage = { input: number; output: number; cached?: number };

function openAiReply(seq: number, model: string, text: string, usage: Usage | null) {
  return {
    id: `chatcmpl-mock-${seq}`,
    object: 'chat.completion',
    created: 1_700_000_000 + seq,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    ...(usage === null
      ? {}
      : {
          usage: {
            prompt_tokens: usage.input,
            completion_tokens: usage.output,
            total_tokens: usage.input + usage.output,
            ...(usage.cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cached } }),
          },
        }),
  };
}

function anthropicReply(seq: number, model: string, text: string, usage: Usage | null) {
  return {
    id: `msg_mock_${seq}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    // Anthropic reports cache reads apart from `input_tokens`.
    usage: {
      input_tokens: (usage?.input ?? 0) - (usage?.cached ?? 0),
      output_tokens: usage?.output ?? 0,
      ...(usage?.cached === undefined ? {} : { cache_read_input_tokens: usage.cached }),
    },
  };
}

function errorBody(protocol: Protocol, message: string) {
  return protocol === 'openai'
    ? { error: { message, type: 'server_error', code: null } }
    : { type: 'error', error: { type: 'api_error', message } };
}
