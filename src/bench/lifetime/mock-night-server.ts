// An OpenAI-compatible chat endpoint on 127.0.0.1 that answers every sleep step deterministically from its packet and counts the tokens it received and sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { countTokens } from '../../core/token-count.js';
import { parsePacket, turnRanges } from '../../sleep/prompts/packet-text.js';
import { PROMPT_STEPS, promptText, type PromptStep } from '../../sleep/prompts/prompt-texts.js';
import { parseSelfImagePacket } from '../../sleep/prompts/self-image-prompt.js';

/** Tokens the server has seen, counted with gpt-tokenizer (o200k) on the request's messages and its own answers. */
export interface MockNightUsage {
  requests: number;
  input: number;
  output: number;
  /** Prompt tokens served from a cache; the mock has none and reports 0, as a provider without caching would. */
  cached: number;
  /** Requests answered with HTTP 4xx (a malformed body or a system prompt of no known step). */
  rejected: number;
  /** The same counts per sleep step (the step the system prompt names). */
  steps: Record<string, { requests: number; input: number; output: number }>;
}

/** A running mock: its base URL (for `sleep.openaiBaseUrl`) and the tokens counted so far. */
export interface MockNightServer {
  readonly url: string;
  /** A copy of the running totals. */
  usage(): MockNightUsage;
  close(): Promise<void>;
}

const chatRequest = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })).min(1),
});

type Packet = Record<string, unknown>;

const STOP = new Set(
  'about after again also been before being could does doing from have just like more much really some than that their them then there these they thing think this those very what when where which while with would your yours yeah going great sounds thanks'.split(' '),
);

/** The most frequent content words (≥ 4 letters, no stop words) of `texts`, ties by first appearance. */
export function topWords(texts: readonly string[], n: number): string[] {
  const counts = new Map<string, number>();
  for (const t of texts) {
    for (const w of t.toLowerCase().match(/\p{L}{4,}/gu) ?? []) if (!STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([w]) => w);
}

function arr(v: unknown): Packet[] {
  return Array.isArray(v) ? (v.filter((x) => typeof x === 'object' && x !== null) as Packet[]) : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The librarian's proposals over the turns a packet shows: one fact per 8 turns shown, naming their main words. */
function factsOf(turns: ReadonlyArray<{ n: number; text: string }>): unknown[] {
  const proposals: unknown[] = [];
  for (let i = 0; i < turns.length; i += 8) {
    const part = turns.slice(i, i + 8);
    const words = topWords(part.map((t) => t.text), 6);
    if (words.length === 0) continue;
    proposals.push({ op: 'abstract', kind: 'fact', content: `Topics discussed: ${words.join(', ')}`, evidence: turnRanges(part.map((t) => t.n)) });
  }
  return proposals;
}

/**
 * The answer of one step, derived from the request's user message only (the turn packet of `packet-text.ts` for
 * solidify and the librarian, `kind: content` lines for the self-image, JSON for the other steps). It never copies a
 * turn verbatim: narratives and knowledge are keyword digests ("talked about dance, studio, lessons"), so no evidence
 * text can reach the agent through the mock's own writing; what injected recall finds is what the product itself kept and showed. Solidify answers both
 * halves a real model is asked for: a narrative per chunk, and the librarian's facts for the same turns.
 */
export function mockAnswer(step: PromptStep, user: string): unknown {
  if (step === 'self_image') {
    const words = topWords(parseSelfImagePacket(user).map((k) => k.content), 3);
    return { works_on: `Conversations about ${words.join(', ') || 'daily life'}`, user_wants: 'Remember what was said', stuck_on: 'Nothing in particular' };
  }
  if (step === 'solidify' || step === 'librarian') {
    const packet = parsePacket(user);
    const turns = packet.blocks.flatMap((b) => b.turns);
    if (step === 'librarian') return { proposals: factsOf(turns) };
    return {
      // Narratives per chunk; the `# -` block (episodes outside any chunk) only feeds the facts.
      narratives: packet.blocks.filter((c) => c.id !== '-').map((c) => {
        const texts = c.turns.map((t) => t.text);
        const words = topWords(texts, 5);
        return {
          chunk: c.id ?? '',
          gesture: `Talked about ${words.slice(0, 3).join(', ') || 'the day'}`,
          context: `a conversation of ${texts.length} turns`,
          tags: words.length > 0 ? words : ['conversation'],
          importance: 3,
          emotional: 2,
          unresolved: 1,
        };
      }),
      proposals: factsOf(turns),
    };
  }
  let p: Packet = {};
  try {
    const parsed: unknown = JSON.parse(user);
    if (typeof parsed === 'object' && parsed !== null) p = parsed as Packet;
  } catch {
    // A packet that is not JSON gets the step's empty answer.
  }
  return jsonAnswer(step, p);
}

function jsonAnswer(step: PromptStep, p: Packet): unknown {

  switch (step) {
    case 'comb': {
      const first = arr(p.narratives)[0];
      return {
        rescore: first ? [{ id: str(first.id), importance: 3 }] : [],
        profiles: [],
        self: [],
        conflicts: [],
        threads: [],
        thread_status: [],
      };
    }
    case 'drift':
      return { connection: null, thread: null };
    case 'dream': {
      const mem = arr(p.memories);
      const symbols = [...new Set(mem.flatMap((m) => (Array.isArray(m.tags) ? m.tags.map(str) : [])))].filter((s) => s !== '').slice(0, 4);
      while (symbols.length < 3) symbols.push(`symbol${symbols.length + 1}`);
      return {
        symbols,
        sources: mem.slice(0, 2).map((m) => str(m.id)),
        dream: `A dream of ${symbols.join(' and ')}`,
        reflection: `The day kept returning to ${symbols[0]}`,
        emotional: 2,
        unresolved: 1,
      };
    }
    case 'ideas':
      return { ideas: arr(p.problems).map((x) => ({ problem: str(x.id), next_step: 'Ask how it went' })) };
    case 'pii_watch':
      return { names: [] };
    default:
      return {};
  }
}

function stepOf(system: string): PromptStep | undefined {
  return PROMPT_STEPS.find((s) => promptText(s, 'en') === system || promptText(s, 'zh') === system);
}

/**
 * Starts the mock on 127.0.0.1 (a free port). Each chat completion is answered with {@link mockAnswer} for the step
 * its system prompt names; `usage` reports the tokens counted here, and the totals add up every request received.
 * An unknown prompt or a malformed body gets HTTP 400, so a changed prompt fails loudly instead of being guessed.
 */
export async function startMockNightServer(): Promise<MockNightServer> {
  const total: MockNightUsage = { requests: 0, input: 0, output: 0, cached: 0, rejected: 0, steps: {} };
  const answer = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const send = (status: number, body: unknown): void => {
      if (status >= 400) total.rejected += 1;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) return send(404, { error: { message: 'not found' } });
    let body: z.infer<typeof chatRequest>;
    try {
      body = chatRequest.parse(JSON.parse(raw));
    } catch (e) {
      return send(400, { error: { message: `bad request: ${e instanceof Error ? e.message : String(e)}` } });
    }
    const input = body.messages.reduce((n, m) => n + countTokens(m.content), 0);
    total.requests += 1;
    total.input += input;
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const step = stepOf(system);
    if (step === undefined) return send(400, { error: { message: 'unknown system prompt' } });
    const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '{}';
    const text = JSON.stringify(mockAnswer(step, user));
    const output = countTokens(text);
    total.output += output;
    const perStep = (total.steps[step] ??= { requests: 0, input: 0, output: 0 });
    perStep.requests += 1;
    perStep.input += input;
    perStep.output += output;
    send(200, {
      id: `chatcmpl-mock-${total.requests}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output, prompt_tokens_details: { cached_tokens: 0 } },
    });
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    usage: () => ({ ...total, steps: Object.fromEntries(Object.entries(total.steps).map(([k, v]) => [k, { ...v }])) }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e === undefined ? resolve() : reject(e)));
      }),
  };
}
