/** The agent-driven night through a real MCP client: sleep_status, sleep_next/sleep_submit packets, dream_* prompts, sampling. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSleep } from '../src/app/agent-sleep.js';
import { PROMPT_TEXTS_EN } from '../src/sleep/prompts/texts-en.js';
import { createMcpServer } from '../src/surfaces/mcp/create-mcp-server.js';
import { countTokens } from '../src/core/token-count.js';
import { recordDay, ResponderModel } from './sleep-fixtures.js';
import { tempMemory, T0, type TempMemory } from './helpers/temp-memory.js';
import { appContextOf } from '../src/app/tidepool.js';

const DAY = 86_400_000;
let tm: TempMemory | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  if (tm) await agentSleep(appContextOf(tm.memory)).settled();
  await tm?.cleanup();
  tm = undefined;
});

type ToolReply = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};

async function connect(capabilities: Record<string, unknown> = {}): Promise<Client> {
  const server = await createMcpServer(tm!.memory, { toolsets: 'core,sleep' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'agent', version: '1.0.0' }, { capabilities });
  clients.push(client);
  return Object.assign(client, { ready: await Promise.all([server.connect(a), client.connect(b)]) });
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolReply> {
  return (await client.callTool({ name, arguments: args })) as ToolReply;
}

/** What the agent would answer: the responder model's answer for the packet's step and input. */
async function think(model: ResponderModel, packet: Record<string, unknown>): Promise<string> {
  const r = await model.complete({
    system: String(packet.system),
    messages: packet.messages as Array<{ role: 'user' | 'assistant'; content: string }>,
    maxTokens: Number(packet.max_tokens),
    step: String(packet.step),
  });
  return r.text;
}

async function recordConversation(): Promise<void> {
  await tm!.memory.record({
    turns: [
      { role: 'user', content: 'Can we freeze the release branch on Thursday evening?', session: 's' },
      {
        role: 'assistant',
        content: 'Yes, the release branch freezes Thursday evening and ships Friday.',
        session: 's',
      },
      { role: 'user', content: 'Then the integration tests must be green by Thursday noon.', session: 's' },
      {
        role: 'assistant',
        content: 'I will rerun the flaky login tests first thing Thursday.',
        session: 's',
      },
      { role: 'user', content: 'Good. Keep the release notes short.', session: 's' },
    ],
  });
  tm!.clock.set(T0 + DAY);
}

describe('the agent-driven night', () => {
  it('hands out packets step by step, takes the answers (a bad one comes back once), and ends with the briefing', async () => {
    tm = await tempMemory();
    await recordConversation();
    const client = await connect();
    const status = await call(client, 'sleep_status', {});
    expect(status.content[0]?.text).toMatch(/ready to sleep: 5 episode\(s\) waiting/);

    const agent = new ResponderModel();
    let reply = await call(client, 'sleep_next', { wait_seconds: 10 });
    let packet = reply.structuredContent as Record<string, unknown>;
    expect(packet).toMatchObject({ packet_id: 'packet-1', step: 'solidify' });
    expect(reply.content[0]?.text).toMatch(
      /^Sleep packet packet-1, step "solidify"\. Act as the night's model/,
    );
    // A bad answer comes back as a retry packet of the same step, with the reason.
    reply = await call(client, 'sleep_submit', {
      packet_id: 'packet-1',
      answer: 'I would rather not',
      wait_seconds: 10,
    });
    // sleep_submit tells the truth: the answer was rejected, with the reason, not "Accepted".
    expect(reply.content[0]?.text).toMatch(/^Rejected packet-1: .+\nThe night asks once more/);
    expect(reply.structuredContent).toMatchObject({ rejected: 'packet-1', retry: true, reason: expect.any(String) });
    packet = reply.structuredContent!.next as Record<string, unknown>;
    expect(packet).toMatchObject({ packet_id: 'packet-2', step: 'solidify' });
    expect(JSON.stringify(packet.messages)).toContain('Your answer was rejected');
    const steps: string[] = [];
    for (let i = 0; i < 20 && typeof packet.packet_id === 'string'; i++) {
      steps.push(String(packet.step));
      reply = await call(client, 'sleep_submit', {
        packet_id: packet.packet_id,
        answer: await think(agent, packet),
        wait_seconds: 10,
      });
      expect(reply.isError).toBeFalsy();
      packet = reply.structuredContent!.next as Record<string, unknown>;
    }
    // Solidify reads the five turns once for narratives and knowledge: no librarian packet.
    expect(steps).toEqual(['solidify', 'comb', 'dream', 'pii_watch']);
    expect(packet).toMatchObject({ state: 'finished', result: 'slept' });
    expect(reply.content[0]?.text).toMatch(
      /The night is over\. While you were away: 1 new, 0 reinforced, 0 forgotten from 5 episodes\./,
    );
    const briefing = await call(client, 'briefing', {});
    expect(briefing.content[0]?.text).toContain(
      'While you were away: 1 new, 0 reinforced, 0 forgotten from 5 episodes.',
    );
    const stale = await call(client, 'sleep_submit', { packet_id: 'packet-1', answer: '{}' });
    expect([stale.isError, stale.content[0]?.text]).toEqual([
      undefined,
      expect.stringMatching(/^Packet packet-1 is not waiting/),
    ]);
  });

  it('rejects a wrong-shaped answer twice with the reason; the unit is skipped and its episodes wait for the next night', async () => {
    tm = await tempMemory();
    await tm.memory.record({ turns: [{ content: 'just one thing' }] });
    tm.clock.set(T0 + DAY);
    const client = await connect();
    const first = await call(client, 'sleep_next', { force: true, wait_seconds: 5 });
    expect(first.structuredContent).toMatchObject({ packet_id: 'packet-1', step: 'librarian' });
    let reply = await call(client, 'sleep_submit', { packet_id: 'packet-1', answer: { wrong: true }, wait_seconds: 10 });
    expect(reply.content[0]?.text).toMatch(/^Rejected packet-1: /);
    expect(reply.structuredContent).toMatchObject({ retry: true, next: { packet_id: 'packet-2', step: 'librarian' } });
    reply = await call(client, 'sleep_submit', { packet_id: 'packet-2', answer: '{"proposals":[],"extra":1}', wait_seconds: 10 });
    expect(reply.content[0]?.text).toMatch(/^Rejected packet-2: .+\nThat was the second bad answer: this unit is skipped/s);
    expect(reply.structuredContent).toMatchObject({ rejected: 'packet-2', retry: false });
    // Answer whatever else the night asks, then check the episode still waits.
    const agent = new ResponderModel();
    let packet = reply.structuredContent!.next as Record<string, unknown>;
    while (typeof packet.packet_id === 'string') {
      const r = await call(client, 'sleep_submit', { packet_id: packet.packet_id, answer: await think(agent, packet), wait_seconds: 10 });
      packet = r.structuredContent!.next as Record<string, unknown>;
    }
    await agentSleep(appContextOf(tm.memory)).settled();
    expect((await appContextOf(tm.memory).store.forSpace(tm.memory.space).episodes.get(1))?.consolidatedAt).toBeNull();
  });

  it('drives a 100-episode day within 6,000 tokens read and written, the instructions of each step shown once', async () => {
    tm = await tempMemory();
    await recordDay(tm.memory, T0);
    tm.clock.set(T0 + DAY);
    const client = await connect();
    const agent = new ResponderModel();
    // Everything the agent reads (each tool reply) and writes (each answer), counted by the o200k tokenizer.
    const byStep: Record<string, number> = {};
    const firstOf = new Map<string, string>();
    let reply = await call(client, 'sleep_next', { wait_seconds: 10 });
    let packet = reply.structuredContent as Record<string, unknown>;
    for (let i = 0; i < 40 && typeof packet.packet_id === 'string'; i++) {
      const step = String(packet.step);
      const answer = await think(agent, packet);
      byStep[step] = (byStep[step] ?? 0) + countTokens(reply.content[0]!.text!) + countTokens(answer);
      if (!firstOf.has(step)) {
        firstOf.set(step, String(packet.packet_id));
        expect(packet.system).toBe(PROMPT_TEXTS_EN[step as keyof typeof PROMPT_TEXTS_EN]);
      } else expect(packet.system).toBe(`Same instructions as ${firstOf.get(step)} (step "${step}") tonight.`);
      reply = await call(client, 'sleep_submit', { packet_id: packet.packet_id, answer, wait_seconds: 10 });
      packet = reply.structuredContent!.next as Record<string, unknown>;
    }
    expect(packet).toMatchObject({ state: 'finished', result: 'slept' });
    const total = Object.values(byStep).reduce((a, b) => a + b, 0);
    // Printed for docs/BENCHMARKS.md (`npx vitest run test/sleep-mcp.test.ts -t "100-episode"`).
    console.log(`agent night, 100-episode day: ${total} tokens read and written; by step ${JSON.stringify(byStep)}`);
    expect(total).toBeLessThanOrEqual(6_000);
    expect(firstOf.has('solidify')).toBe(true);
  });

  it('does not start a night with nothing to consolidate unless forced', async () => {
    tm = await tempMemory();
    await tm.memory.record({ turns: [{ content: 'just one thing' }] });
    tm.clock.set(T0 + DAY);
    const client = await connect();
    const reply = await call(client, 'sleep_next', { wait_seconds: 5 });
    expect(reply.content[0]?.text).toMatch(/The night is over\. staying awake: 1 episode\(s\) waiting/);
    const forced = await call(client, 'sleep_next', { force: true, wait_seconds: 5 });
    let packet = forced.structuredContent!;
    expect(packet).toMatchObject({ step: 'librarian' });
    const agent = new ResponderModel();
    while (typeof packet.packet_id === 'string') {
      const reply = await call(client, 'sleep_submit', {
        packet_id: packet.packet_id,
        answer: await think(agent, packet),
        wait_seconds: 10,
      });
      packet = reply.structuredContent!.next as Record<string, unknown>;
    }
    expect(packet).toMatchObject({ state: 'finished', result: 'slept' });
  });

  it('offers the three DREAM prompts, each leading into the protocol', async () => {
    tm = await tempMemory();
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['dream_solidify', 'dream_digest', 'dream_sleep']),
    );
    const p = await client.getPrompt({ name: 'dream_digest' });
    const text = (p.messages[0]?.content as { text: string }).text;
    expect(text).toMatch(/covers re-scoring today's memories/);
    expect(text).toMatch(/Call sleep_next/);
  });

  it("lets the client's own model answer through MCP sampling", async () => {
    tm = await tempMemory();
    await recordConversation();
    const client = await connect({ sampling: {} });
    const model = new ResponderModel();
    const stepOf = new Map(Object.entries(PROMPT_TEXTS_EN).map(([step, text]) => [text, step]));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const r = await model.complete({
        system: request.params.systemPrompt ?? '',
        messages: request.params.messages.map((m) => ({
          role: m.role,
          content: (m.content as { text: string }).text,
        })),
        maxTokens: request.params.maxTokens,
        step: stepOf.get(request.params.systemPrompt ?? '') ?? '?',
      });
      return { role: 'assistant', model: 'host-model', content: { type: 'text', text: r.text } };
    });
    const reply = await call(client, 'sleep_next', { model: 'sampling', wait_seconds: 60 });
    expect(reply.structuredContent).toMatchObject({ state: 'finished', result: 'slept' });
    expect(model.seen.map((s) => s.step)).toEqual(['solidify', 'comb', 'dream', 'pii_watch']);
  });
});
