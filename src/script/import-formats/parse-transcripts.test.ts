import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';
import type { ImportedTurn, ParsedTranscript } from './imported-turn.js';
import { parseClaudeCode } from './parse-claude-code.js';
import { parseCodex } from './parse-codex.js';
import { isHermesSessionFile, parseHermes } from './parse-hermes.js';
import { parseLocomo } from './parse-locomo.js';
import { parseSessionDate } from './session-date.js';
import { parseMarkdownChat } from './parse-markdown-chat.js';
import { parseOpenAiJsonl } from './parse-openai-jsonl.js';
import { parseTranscript } from './parse-transcript.js';

const dir = new URL('../../../test/fixtures/import/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const CODEX = 'codex-rollout-2025-09-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl';
const HERMES_JSON = 'hermes-session_20250812_093000_a1b2c3.json';

function expectIdempotent(parse: () => ParsedTranscript): void {
  const a = parse();
  const b = parse();
  expect(b).toEqual(a);
  expect(new Set(a.turns.map((t) => t.ref)).size).toBe(a.turns.length);
}

const brief = (t: ImportedTurn) => [t.role, t.tool ?? t.speaker ?? '', t.content.slice(0, 24)];

describe('Claude Code JSONL', () => {
  const text = fixture('claude-code-session.jsonl');
  const r = parseClaudeCode(text, { fileId: 'claude-code-session.jsonl' });

  it('keeps user and assistant text, tool calls and tool results, skipping meta, thinking, summary and system lines', () => {
    expect(r.turns.map(brief)).toEqual([
      ['user', '', 'The sync test fails abou'],
      ['assistant', '', 'Let me run the test a fe'],
      ['tool', 'Bash', 'Bash {"command":"npm tes'],
      ['tool', 'Bash', 'FAIL sync.test.ts\n  Erro'],
      ['tool', 'Read', 'Read {"file_path":"/home'],
      ['tool', 'Read', 'export const pool = new '],
      ['assistant', '', 'The pool allows 5 connec'],
      ['user', '', '好的，就这么改。\n[image]'],
    ]);
    expect(r.skipped).toBe(4);
  });

  it('keeps real timestamps, the session id and stable refs, and marks tool success from the result', () => {
    const [first, , call, result] = r.turns;
    expect(first!.at).toBe(Date.parse('2025-08-14T09:12:03.412Z'));
    expect(first!.session).toBe('5f0c2e4a-9d1b-4c3e-8a7f-2b6d1e9c0a11');
    expect(first!.ref).toBe(
      'claude-code:5f0c2e4a-9d1b-4c3e-8a7f-2b6d1e9c0a11:a1b2c3d4-0000-4000-8000-000000000001:0',
    );
    expect(call).toMatchObject({ ok: false, meta: { kind: 'tool_call' } });
    expect(result).toMatchObject({ ok: false, tool: 'Bash', meta: { kind: 'tool_result' } });
    expect(r.turns[4]!.ok).toBe(true);
    expect(r.turns[6]!.content).toBe(
      'The pool allows 5 connections but the test opens 8 workers.\nI will raise max to 10 and release connections in afterEach.',
    );
  });

  it('gives the same refs when imported twice and when the session file has grown', () => {
    expectIdempotent(() => parseClaudeCode(text, { fileId: 'x' }));
    const grown = parseClaudeCode(
      `${text}{"type":"user","sessionId":"5f0c2e4a-9d1b-4c3e-8a7f-2b6d1e9c0a11","uuid":"new-1","timestamp":"2025-08-14T10:00:00Z","message":{"role":"user","content":"one more"}}\n`,
      { fileId: 'x' },
    );
    expect(grown.turns.slice(0, r.turns.length)).toEqual(r.turns);
    expect(grown.turns).toHaveLength(r.turns.length + 1);
  });

  it('cuts very long tool output and says how long it was', () => {
    const line = JSON.stringify({
      type: 'user',
      sessionId: 's',
      uuid: 'u',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(50) }],
      },
    });
    const t = parseClaudeCode(line, { fileId: 'f', maxToolChars: 10 }).turns[0]!;
    expect(t.content).toBe(`${'x'.repeat(10)}…`);
    expect(t.meta?.['truncatedFrom']).toBe(50);
  });
});

describe('Codex rollout JSONL', () => {
  it('reads messages and tool calls with exit codes, skipping injected context, reasoning and duplicate events', () => {
    const r = parseCodex(fixture(CODEX), { fileId: CODEX });
    expect(r.turns.map(brief)).toEqual([
      ['user', '', 'Why does the monthly rep'],
      ['tool', 'shell', 'shell {"command":["bash"'],
      ['tool', 'shell', '41:  total += refund.amo'],
      ['tool', 'shell', 'shell {"command":["bash"'],
      ['tool', 'shell', '1 failing'],
      ['tool', 'apply_patch', 'apply_patch *** Begin Pa'],
      ['tool', 'apply_patch', 'Success. Updated the fol'],
      ['assistant', '', 'Refunds were added twice'],
    ]);
    expect(r.turns.map((t) => t.ok)).toEqual([undefined, true, true, false, false, true, true, undefined]);
    expect(r.turns[0]).toMatchObject({
      session: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      at: Date.parse('2025-09-02T10:00:05.000Z'),
      ref: 'codex:0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b:3',
    });
    expectIdempotent(() => parseCodex(fixture(CODEX), { fileId: CODEX }));
  });

  it('reads the older rollout layout with a bare header line', () => {
    const r = parseCodex(fixture('codex-legacy-rollout.jsonl'), { fileId: 'codex-legacy-rollout.jsonl' });
    expect(r.turns.map(brief)).toEqual([
      ['user', '', 'rename the config flag t'],
      ['tool', 'shell', 'shell {"command":["bash"'],
      ['tool', 'shell', 'src/cli.ts\n'],
      ['assistant', '', 'Renamed in src/cli.ts.'],
    ]);
    expect(r.turns[0]!.session).toBe('3f6e2a10-1b2c-4d5e-9f80-a1b2c3d4e5f6');
  });

  it('falls back to event messages when a rollout has no message items', () => {
    const text = [
      '{"timestamp":"2025-09-02T10:00:00Z","type":"session_meta","payload":{"id":"abc"}}',
      '{"timestamp":"2025-09-02T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"hello"}}',
      '{"timestamp":"2025-09-02T10:00:02Z","type":"event_msg","payload":{"type":"agent_message","message":"hi there"}}',
    ].join('\n');
    expect(parseCodex(text, { fileId: 'f' }).turns.map((t) => [t.role, t.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'hi there'],
    ]);
  });
});

describe('OpenAI-style JSONL', () => {
  it('reads one message a line with tool calls, names, mixed times and a bad line reported', () => {
    const r = parseOpenAiJsonl(fixture('openai-messages.jsonl'), { fileId: 'openai-messages.jsonl' });
    expect(r.turns.map(brief)).toEqual([
      ['user', '', 'Find me a quiet hotel ne'],
      ['tool', 'search_hotels', 'search_hotels {"city":"K'],
      ['tool', 'search_hotels', '[{"name":"Hotel Granvia"'],
      ['assistant', '', 'Hotel Granvia is right a'],
      ['user', 'Mei', 'Book it for two nights.'],
    ]);
    expect(r.turns.map((t) => t.at)).toEqual([
      Date.parse('2025-06-01T07:00:05Z'),
      Date.parse('2025-06-01T07:00:06Z'),
      Date.parse('2025-06-01T07:00:07Z'),
      1_748_761_210_000,
      Date.parse('2025-06-01T07:01:00Z'),
    ]);
    expect(r.turns.every((t) => t.session === 'trip-42')).toBe(true);
    expect(r.warnings).toEqual(['line 6: not JSON']);
    expect(r.skipped).toBe(1); // the system prompt
  });

  it('reads one conversation a line, each its own session', () => {
    const r = parseOpenAiJsonl(fixture('openai-conversations.jsonl'), { fileId: 'c.jsonl' });
    expect(r.turns.map((t) => [t.session, t.role, t.content, t.ref])).toEqual([
      ['conv-a', 'user', 'What is the capital of Australia?', 'openai-jsonl:c.jsonl:1:1'],
      ['conv-a', 'assistant', 'Canberra.', 'openai-jsonl:c.jsonl:1:2'],
      ['c.jsonl#2', 'user', '2 + 2?', 'openai-jsonl:c.jsonl:2:0'],
      ['c.jsonl#2', 'assistant', '4', 'openai-jsonl:c.jsonl:2:1'],
    ]);
    expect(r.turns[0]!.at).toBe(1_717_228_800_000);
  });

  it('reads a pretty-printed single conversation', () => {
    const text = JSON.stringify({ id: 'p', messages: [{ role: 'user', content: 'hi' }] }, null, 2);
    expect(parseOpenAiJsonl(text, { fileId: 'p.json' }).turns).toEqual([
      { session: 'p', role: 'user', content: 'hi', ref: 'openai-jsonl:p.json:1:0' },
    ]);
  });
});

describe('Hermes sessions', () => {
  it('reads a JSON session with tool calls, the session start as time and platform and model in meta', () => {
    const r = parseHermes(fixture(HERMES_JSON), { fileId: HERMES_JSON });
    expect(r.turns.map(brief)).toEqual([
      ['user', '', '提醒我周五给阿明打电话，讨论代码审查。'],
      ['tool', 'cronjob', 'cronjob {"when": "friday'],
      ['tool', 'cronjob', '{"ok": true, "job": 17}'],
      ['assistant', '', '好的，周五上午十点提醒你给阿明打电话。'],
      ['user', '', '谢谢'],
    ]);
    expect(r.turns[0]).toMatchObject({
      session: '20250812_093000_a1b2c3',
      at: Date.UTC(2025, 7, 12, 9, 30),
      meta: { platform: 'telegram', approxTime: true },
    });
    expect(r.turns[4]!.at).toBe(Date.UTC(2025, 7, 12, 9, 41, 12));
    expect(r.turns[4]!.meta).not.toHaveProperty('approxTime');
    expectIdempotent(() => parseHermes(fixture(HERMES_JSON), { fileId: HERMES_JSON }));
  });

  it('reads a JSONL session, dropping its session_meta line and dating it from the file name', () => {
    const r = parseHermes(fixture('hermes-20250813_gateway.jsonl'), {
      fileId: 'hermes-20250813_gateway.jsonl',
    });
    expect(r.turns.map(brief)).toEqual([
      ['user', '', 'What did we decide about'],
      ['tool', 'memory_search', '[tool_call: memory_searc'],
      ['assistant', '', 'You chose the blue wave '],
    ]);
    expect(r.turns[0]).toMatchObject({
      at: Date.UTC(2025, 7, 13),
      session: 'hermes-20250813_gateway',
      meta: { platform: 'discord' },
    });
  });

  it('skips the file names the Tideline importer skipped', () => {
    expect(isHermesSessionFile('session_20250812.json')).toBe(true);
    for (const n of ['cron_daily.json', 'eph_1.jsonl', 'request_dump_2.json', 'sessions.json', 'notes.txt'])
      expect(isHermesSessionFile(n)).toBe(false);
  });
});

describe('markdown chats', () => {
  it('reads role headings with times, keeps fenced code and bold notes inside a turn', () => {
    const r = parseMarkdownChat(fixture('chat-export-2025-03-04.md'), {
      fileId: 'chat-export-2025-03-04.md',
    });
    expect(r.turns.map((t) => [t.role, t.at])).toEqual([
      ['user', Date.UTC(2025, 2, 4, 9, 15)],
      ['assistant', Date.UTC(2025, 2, 4, 9, 16)],
      ['user', Date.UTC(2025, 2, 4, 9, 16)],
      ['assistant', Date.UTC(2025, 2, 4, 9, 20)],
    ]);
    expect(r.turns[1]!.content).toContain('**Note:** in your area');
    expect(r.turns[1]!.content).toContain('User: this line is inside a code fence');
    expect(r.turns[1]!.content.endsWith('```')).toBe(true);
    expect(r.turns[2]).toMatchObject({ content: 'And basil?', meta: { approxTime: true } });
  });

  it('reads bold speaker names as people, with continuation lines, and leaves a one-off "Note:" in the text', () => {
    const r = parseMarkdownChat(fixture('people-transcript.md'), { fileId: 'people-transcript.md' });
    expect(r.turns.map((t) => [t.role, t.speaker, t.content])).toEqual([
      ['user', 'Caroline', 'I finished the novel last night.'],
      ['user', 'Melanie', 'Did you like the ending?\nIt felt rushed to me.'],
      ['user', 'Caroline', 'I loved it.\nNote: this was recorded on a phone.'],
      ['user', 'Melanie', "Let's pick the next book."],
    ]);
    expect(r.turns[0]!.at).toBe(Date.UTC(2024, 10, 2));
  });

  it('reads plain "User:" / "Assistant:" lines and reports a file without turns', () => {
    const r = parseMarkdownChat('User: hi\nAssistant: hello\nhow can I help?', { fileId: 'a.md' });
    expect(r.turns.map((t) => [t.role, t.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'hello\nhow can I help?'],
    ]);
    expect(parseMarkdownChat('# Notes\n\njust text', { fileId: 'b.md' }).warnings).toEqual([
      'no speaker turns found',
    ]);
  });
});

describe('LoCoMo', () => {
  it('reads every dialogue turn with speaker, session time and image caption, and never the annotations', () => {
    const text = fixture('locomo-mini.json');
    const r = parseLocomo(text);
    expect(r.turns.map((t) => [t.ref, t.speaker, t.session])).toEqual([
      ['locomo:conv-demo:D1:1', 'Ana', 'conv-demo:session_1'],
      ['locomo:conv-demo:D1:2', 'Ben', 'conv-demo:session_1'],
      ['locomo:conv-demo:D1:3', 'Ana', 'conv-demo:session_1'],
      ['locomo:conv-demo:D2:1', 'Ben', 'conv-demo:session_2'],
      ['locomo:conv-demo:D2:2', 'Ana', 'conv-demo:session_2'],
      ['locomo:conv-demo:D10:1', 'Ana', 'conv-demo:session_10'],
    ]);
    expect(r.turns[1]!.content).toBe(
      'Busy, but I went hiking on Saturday. [image: a photo of a mountain trail with pine trees]',
    );
    expect(r.turns[0]!.at).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(r.turns[5]!.at).toBe(Date.UTC(2024, 0, 1, 0, 30));
    expect(r.turns.every((t) => t.role === 'user')).toBe(true);
    expect(r.turns.map((t) => t.meta?.['side'])).toEqual(['a', 'b', 'a', 'b', 'a', 'a']);
    expect(JSON.stringify(r)).not.toMatch(/MARKER/);
    expectIdempotent(() => parseLocomo(text));
  });

  it('parses LoCoMo session times, 12 am and 12 pm included', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseSessionDate('12:04 am on 19 December, 2023')).toBe(Date.UTC(2023, 11, 19, 0, 4));
    expect(parseSessionDate('12:30 pm on 2 Jan, 2024')).toBe(Date.UTC(2024, 0, 2, 12, 30));
    expect(parseSessionDate('sometime in May')).toBeUndefined();
  });

  const dev = new URL('../../../../shared/data/locomo/dev.json', import.meta.url);
  it.skipIf(!existsSync(dev))(
    'imports the first real LoCoMo conversation as 419 turns with unique refs',
    () => {
      const all: unknown[] = JSON.parse(readFileSync(dev, 'utf8')) as unknown[];
      const r = parseLocomo(JSON.stringify(all.slice(0, 1)));
      expect(r.turns).toHaveLength(419);
      expect(new Set(r.turns.map((t) => t.ref)).size).toBe(419);
      expect(r.turns.every((t) => typeof t.at === 'number')).toBe(true);
    },
  );
});

describe('detectFormat and parseTranscript', () => {
  it('recognises every fixture', () => {
    const cases: Array<[string, string]> = [
      ['claude-code-session.jsonl', 'claude-code'],
      [CODEX, 'codex'],
      ['codex-legacy-rollout.jsonl', 'codex'],
      ['openai-messages.jsonl', 'openai-jsonl'],
      ['openai-conversations.jsonl', 'openai-jsonl'],
      [HERMES_JSON, 'hermes'],
      ['hermes-20250813_gateway.jsonl', 'hermes'],
      ['chat-export-2025-03-04.md', 'markdown'],
      ['people-transcript.md', 'markdown'],
      ['locomo-mini.json', 'locomo'],
    ];
    for (const [name, format] of cases)
      expect([name, detectFormat(name, fixture(name)).format]).toEqual([name, format]);
  });

  it('recognises a SQLite header as a Tideline database and a cut LoCoMo head, and says when it cannot tell', () => {
    expect(
      detectFormat('memory.db', new TextEncoder().encode('SQLite format 3\u0000\u0010\u0000')).format,
    ).toBe('tideline');
    expect(detectFormat('locomo10.json', fixture('locomo-mini.json').slice(0, 400)).format).toBe('locomo');
    const unknown = detectFormat('data.bin', 'hello');
    expect(unknown.format).toBeUndefined();
    expect(unknown).toHaveProperty('reason');
  });

  it('dispatches to the parser of the format', () => {
    expect(parseTranscript('locomo', fixture('locomo-mini.json'), { fileId: 'x' }).turns).toHaveLength(6);
    expect(parseTranscript('markdown', fixture('people-transcript.md'), { fileId: 'x' }).turns).toHaveLength(
      4,
    );
  });
});
