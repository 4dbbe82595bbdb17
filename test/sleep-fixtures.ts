/** Shared by the sleep tests: a model that answers every packet from its own input, and a recorded day of episodes. */
import type { Tidepool } from '../src/app/tidepool.js';
import type { Model, ModelRequest, ModelResponse } from '../src/sleep/llm/model.js';
import { estimateRequestTokens, estimateTokens } from '../src/sleep/llm/token-estimate.js';
import { parsePacket, turnRanges, type ParsedPacket } from '../src/sleep/prompts/packet-text.js';
import { parseSelfImagePacket } from '../src/sleep/prompts/self-image-prompt.js';

const MIN = 60_000;

/** A request the responder saw, with its parsed payload. */
export interface SeenRequest {
  step: string;
  payload: Record<string, unknown>;
  request: ModelRequest;
}

/**
 * A stand-in for a language model (unreachable in tests): it parses each packet's JSON payload and answers in the
 * step's schema with content taken from the payload, so every night step runs end to end. Token counts are the
 * real tokenizer's (o200k) on the full request and answer, as a provider without usage reporting is counted.
 */
export class ResponderModel implements Model {
  readonly name = 'responder';
  readonly seen: SeenRequest[] = [];

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const step = req.step ?? '?';
    const user = req.messages[0]?.content ?? '{}';
    // Solidify and the librarian read the turn packet (packet-text.ts), the self-image `kind: content` lines; the
    // other steps JSON.
    const payload =
      step === 'solidify' || step === 'librarian'
        ? (parsePacket(user) as unknown as Record<string, unknown>)
        : step === 'self_image'
          ? { knowledge: parseSelfImagePacket(user) }
          : (JSON.parse(user) as Record<string, unknown>);
    this.seen.push({ step, payload, request: req });
    const text = JSON.stringify(answer(step, payload));
    return { text, inputTokens: estimateRequestTokens(req), outputTokens: estimateTokens(text) };
  }

  /** Every text a model was shown, joined (to assert what never reached it). */
  shownText(): string {
    return this.seen
      .map((s) => `${s.request.system}\n${s.request.messages.map((m) => m.content).join('\n')}`)
      .join('\n');
  }
}

type Rec = Record<string, unknown>;

function words(s: string): string[] {
  return (s.toLowerCase().match(/[a-z]{5,}/g) ?? []).slice(0, 3);
}

/** The librarian's part: a fact per 8 turns shown (evidence as turn numbers), and a link to the first shown entry. */
function proposalsFor(packet: ParsedPacket): unknown[] {
  const turns = packet.blocks.flatMap((b) => b.turns);
  const proposals: unknown[] = [];
  for (let i = 0; i < turns.length; i += 8) {
    const part = turns.slice(i, i + 8);
    proposals.push({
      op: 'abstract',
      kind: 'fact',
      content: `Observed: ${part[0]!.text.slice(0, 90)}`,
      // Cited as the prompt asks: a run of consecutive turns as one range.
      evidence: turnRanges(part.map((t) => t.n)),
      ref: `r${i}`,
    });
  }
  const known = packet.knowledge[0];
  if (known !== undefined && proposals.length > 0) proposals.push({ op: 'link', from: 'r0', to: known.id, type: 'about' });
  return proposals;
}

function answer(step: string, p: Rec): unknown {
  switch (step) {
    case 'solidify': {
      const packet = p as unknown as ParsedPacket;
      return {
        narratives: packet.blocks.filter((c) => c.id !== '-').map((c, i) => ({
          chunk: c.id ?? '',
          gesture: `I noticed: ${c.turns[0]?.text.slice(0, 80) ?? 'a talk'}`,
          context: 'a working session',
          tags: [...new Set(['work', ...words(c.turns.map((t) => t.text).join(' '))])].slice(0, 4),
          importance: 3,
          // The first chunk stirred something, so the night has a dream to dream.
          emotional: i === 0 ? 4 : 2,
          unresolved: 2,
        })),
        proposals: proposalsFor(packet),
      };
    }
    case 'librarian':
      return { proposals: proposalsFor(p as unknown as ParsedPacket) };
    case 'comb': {
      const mem = p.memories as Array<{ id: string }>;
      return {
        rescore: mem[0] ? [{ id: mem[0].id, importance: 4 }] : [],
        threads: [{ content: 'what connects the day?', importance: 2, emotional: 2, unresolved: 3 }],
      };
    }
    case 'drift':
      return { connection: null, thread: null };
    case 'dream': {
      const mem = p.memories as Array<{ id: string; tags: string[] }>;
      const symbols = [...new Set(mem.flatMap((m) => m.tags))].slice(0, 4);
      while (symbols.length < 3) symbols.push(`symbol${symbols.length}`);
      return {
        symbols,
        sources: mem.slice(0, 2).map((m) => m.id),
        dream: `A dream of ${symbols.join(' and ')}`,
        reflection: 'I keep circling the same work',
        emotional: 2,
        unresolved: 2,
      };
    }
    case 'self_image':
      return { works_on: 'Release work', user_wants: 'Short answers', stuck_on: 'Flaky tests' };
    case 'ideas':
      return {
        ideas: (p.problems as Array<{ id: string }>).map((x) => ({
          problem: x.id,
          next_step: 'Try the smallest reproduction first',
        })),
      };
    case 'pii_watch':
      return { names: [] };
    default:
      return {};
  }
}

/** Topics of the synthetic day: a realistic spread of work talk. */
const TOPICS = [
  ['release', 'We planned the release for Friday and agreed to freeze the branch on Thursday evening.'],
  ['tests', 'The integration tests are flaky on the login flow; a retry hides a race in the session cache.'],
  [
    'database',
    'The staging database moved to port 6543 and the migration script needs the new connection string.',
  ],
  [
    'review',
    'Code review feedback: keep functions short, name errors after what went wrong, add a test per bug.',
  ],
  [
    'deploy',
    'The deploy pipeline takes eleven minutes; caching the dependency install would save about four.',
  ],
] as const;

/**
 * Records a working day of `n` episodes (default 100) at the memory's clock: conversations in 5 sessions of
 * user/assistant turns a few minutes apart, and tool results (run_tests → build → deploy) that repeat in two
 * sessions, as an agent's day looks. Returns the ids.
 */
export async function recordDay(memory: Tidepool, start: number, n = 100): Promise<string[]> {
  const turns: Array<{
    role: 'user' | 'assistant' | 'tool';
    content: string;
    session: string;
    at: number;
    tool?: string;
    ok?: boolean;
  }> = [];
  for (let i = 0; i < n; i++) {
    const s = Math.floor((i * 5) / n);
    const [topic, line] = TOPICS[s]!;
    const at = start + s * 90 * MIN + (i % (n / 5)) * 2 * MIN;
    if (s < 2 && i % (n / 5) >= n / 5 - 3) {
      const tool = ['run_tests', 'build', 'deploy'][(i % (n / 5)) - (n / 5 - 3)]!;
      turns.push({ role: 'tool', content: `${tool}: ok (${topic})`, session: `s${s}`, at, tool, ok: true });
      continue;
    }
    const role = i % 2 === 0 ? 'user' : 'assistant';
    turns.push({
      role,
      content: `${role === 'user' ? 'Question' : 'Answer'} ${i} on ${topic}: ${line}`,
      session: `s${s}`,
      at,
    });
  }
  const r = await memory.record({ turns });
  return r.ids;
}
