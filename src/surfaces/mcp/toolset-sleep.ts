/** The `sleep` toolset: the agent runs the night itself (sleep_status, sleep_next, sleep_submit; dream_* prompts). */
import { z } from 'zod';
import type { AgentNext, AgentPacket } from '../../app/agent-sleep.js';
import { reviewInput } from '../../app/review.js';
import { TidepoolError } from '../../core/errors.js';
import { describeNight, describeWake } from '../../app/sleep.js';
import { jsonObject } from '../../core/schemas.js';
import { addTool, isoMinute, type Toolset } from './toolset.js';
import type { ToolOutput } from './tool-result.js';

/** The first MCP revision without server-to-client requests (per-request envelopes, no session). */
const MODERN_REVISION = '2026-07-28';

/** How long sleep_next and sleep_submit wait for the next packet by default, and at most (seconds). */
const DEFAULT_WAIT_S = 30;
const MAX_WAIT_S = 120;

const waitSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_S)
  .optional()
  .describe(`seconds to wait for the next packet (default ${DEFAULT_WAIT_S}, at most ${MAX_WAIT_S})`);

/** A packet as the agent reads it: instructions, input, and how to answer. */
function packetOutput(p: AgentPacket): ToolOutput {
  const input = p.messages
    .map((m) => (m.role === 'user' ? m.content : `(your earlier answer) ${m.content}`))
    .join('\n\n');
  // The first packet of a step says how to answer; a later one only names itself (its instructions refer back).
  const head = p.system.startsWith('Same instructions as ')
    ? `Sleep packet ${p.id}, step "${p.step}": answer with sleep_submit (JSON only, at most about ${p.maxTokens} tokens). ${p.system}`
    : `Sleep packet ${p.id}, step "${p.step}". Act as the night's model: follow the instructions, then answer with sleep_submit (JSON only, at most about ${p.maxTokens} tokens).\n\n## Instructions\n\n${p.system}`;
  const text = [head, '## Input', input].join('\n\n');
  return {
    text,
    data: { packet_id: p.id, step: p.step, system: p.system, messages: p.messages, max_tokens: p.maxTokens },
  };
}

function nextOutput(n: AgentNext): ToolOutput {
  switch (n.kind) {
    case 'packet':
      return packetOutput(n.packet);
    case 'finished':
      return {
        text: `The night is over. ${describeNight(n.result)}`,
        data: { state: 'finished', result: n.result.kind, summary: describeNight(n.result) },
      };
    case 'failed':
      return {
        text: `The night stopped with an error: ${n.message}. Calling sleep_next resumes it.`,
        data: { state: 'failed', message: n.message },
      };
    case 'idle':
      return {
        text: 'No packet yet: the night is still working (or none is running). Call sleep_next again.',
        data: { state: 'idle' },
      };
  }
}

/** The three Tideline DREAM prompt names, each a way into the one night (which runs every step in order). */
const PROMPTS = [
  [
    'dream_solidify',
    'Solidify the day',
    "turning today's conversation chunks into narrative memories (solidify) and the librarian's knowledge proposals",
  ],
  [
    'dream_digest',
    'Digest the day',
    "re-scoring today's memories, profiles, self-concept, conflicts and threads (comb)",
  ],
  [
    'dream_sleep',
    'Sleep and dream',
    'the night drift and the symbolic dream, then the deterministic lifecycle and the briefing',
  ],
] as const;

/** The sleep toolset. */
export const toolset: Toolset = {
  name: 'sleep',
  summary:
    "sleep_status, sleep_next, sleep_submit: the agent itself does the night's thinking (no API key needed); review: the user's verdict on quarantined knowledge",
  guide:
    'When asked to sleep (or by a dream_* prompt): call sleep_next, answer each packet as the model would with ' +
    'sleep_submit (JSON only), and repeat until the night is over; sleep_status says whether there is anything to consolidate.',
  tools: ['sleep_status', 'sleep_next', 'sleep_submit', 'review'],
  register(server, { memory }) {
    addTool(server, {
      name: 'sleep_status',
      title: 'Sleep status',
      description:
        'Whether the memory is ready to sleep (episodes waiting), the last night, an interrupted night, and whether a night driven by you is running with packets waiting.',
      input: {},
      hints: { readOnly: true, idempotent: true },
      async run() {
        const s = await memory.sleepStatus();
        const hub = await memory.agentSleep();
        const last = s.lastNight;
        const lines = [
          `Sleep status of space "${s.space}" (model ${s.model}).`,
          describeWake(s.decision, memory.config.sleep.wake),
          last
            ? `Last night: ${last.night} (${last.model}), finished ${isoMinute(last.finishedAt ?? last.startedAt)}.`
            : 'No night has run yet.',
          ...(s.interrupted
            ? [`An interrupted night of ${s.interrupted.night} waits to be resumed: sleep_next resumes it.`]
            : []),
          hub.running
            ? `A night is running; ${hub.model.pendingCount()} packet(s) wait for you.`
            : 'No night is running here.',
        ];
        return {
          text: lines.join('\n'),
          data: {
            space: s.space,
            model: s.model,
            decision: s.decision,
            last_night: last ?? null,
            interrupted: s.interrupted ?? null,
            running: hub.running,
            pending_packets: hub.model.pendingCount(),
          },
        };
      },
    });

    addTool(server, {
      name: 'sleep_next',
      title: 'Next sleep packet',
      description:
        "Start (or continue) tonight's consolidation with you as its model and get the next work packet: instructions plus input. " +
        'Answer it with sleep_submit. With nothing to consolidate the night does not start unless force is true; ' +
        'model "sampling" lets your client\'s own model answer instead (MCP sampling) and waits for the night to end.',
      input: {
        force: z.boolean().optional().describe('sleep even when fewer than 5 episodes wait'),
        model: z
          .enum(['agent', 'sampling'])
          .optional()
          .describe("agent (default): you answer the packets; sampling: the client's model does"),
        wait_seconds: waitSeconds,
      },
      hints: { readOnly: false, idempotent: false },
      async run(args) {
        const hub = await memory.agentSleep();
        const sampling = args.model === 'sampling';
        // Revision 2026-07-28 removed server-to-client requests (sampling/createMessage); its dates sort as strings.
        if (sampling && (server.server.getNegotiatedProtocolVersion() ?? '') >= MODERN_REVISION) {
          throw new TidepoolError(
            'invalid_input',
            `model: sampling needs a client on a protocol revision before ${MODERN_REVISION} (this one has no server-to-client requests); use model "agent" and answer the packets yourself`,
            { field: 'model' },
          );
        }
        if (!hub.running && hub.model.pendingCount() === 0) {
          hub.start({
            force: args.force ?? false,
            ...(sampling ? { sample: (p) => server.server.createMessage(p) } : {}),
          });
        }
        const waitMs = (args.wait_seconds ?? (sampling ? MAX_WAIT_S : DEFAULT_WAIT_S)) * 1000;
        return nextOutput(await hub.next(waitMs));
      },
    });

    addTool(server, {
      name: 'sleep_submit',
      title: 'Submit a sleep answer',
      description:
        'Answer a packet from sleep_next with JSON in the shape its instructions ask for. The reply is the next packet ' +
        '(an answer of the wrong shape is rejected with the reason and asked for once more, then its unit is skipped) or the end of the night with its briefing headline.',
      input: {
        packet_id: z.string().trim().min(1).max(100).describe('the packet_id sleep_next gave'),
        answer: z
          .union([z.string().min(1).max(100_000), jsonObject])
          .describe('your answer: JSON text or an object'),
        wait_seconds: waitSeconds,
      },
      hints: { readOnly: false, idempotent: false },
      async run(args) {
        const hub = await memory.agentSleep();
        const text = typeof args.answer === 'string' ? args.answer : JSON.stringify(args.answer);
        const r = hub.submit(args.packet_id, text);
        if (r.kind === 'unknown_packet') {
          return {
            text: `Packet ${args.packet_id} is not waiting (already answered, timed out, or the night ended). Call sleep_next for the current packet.`,
            data: { state: 'unknown_packet', packet_id: args.packet_id },
          };
        }
        const next = nextOutput(await hub.next((args.wait_seconds ?? DEFAULT_WAIT_S) * 1000));
        if (r.kind === 'rejected') {
          const what = r.retry
            ? 'The night asks once more: answer the next packet in the requested shape.'
            : 'That was the second bad answer: this unit is skipped, its episodes wait for the next night.';
          return {
            text: `Rejected ${args.packet_id}: ${r.reason}\n${what}\n\n${next.text}`,
            data: { rejected: args.packet_id, reason: r.reason, retry: r.retry, next: next.data },
          };
        }
        return {
          text: `Accepted ${args.packet_id}.\n\n${next.text}`,
          data: { accepted: args.packet_id, next: next.data },
        };
      },
    });

    addTool(server, {
      name: 'review',
      title: 'Review quarantined knowledge',
      description:
        'The "Needs review" list: knowledge the night held back because it contradicts reliable knowledge, and rows it ' +
        'flagged for personal data in clear (e-mail, phone, IBAN, card, address). Without an id it lists them with what ' +
        "each clashes with or holds. With an id and the user's verdict: approve makes a held-back entry reliable (replacing " +
        'the one it contradicted) or keeps a flagged row; reject forgets the entry or erases the row. Decide only as the user tells you.',
      input: {
        id: reviewInput.shape.id.optional().describe('the entry to decide on, e.g. k12 (omit to list)'),
        verdict: reviewInput.shape.verdict.optional().describe('approve or reject (with id)'),
      },
      hints: { readOnly: false, idempotent: false },
      async run(args) {
        if (args.id === undefined) {
          if (args.verdict !== undefined)
            throw new TidepoolError('invalid_input', 'id: name the entry to approve or reject (review without arguments lists them)', { field: 'id' });
          const items = await memory.reviewList();
          const lines = items.map((i) => `- ${i.id} "${i.content}": ${i.reason}${i.against ? ` (${i.against.id} "${i.against.content}")` : ''}`);
          return { text: items.length === 0 ? 'Nothing needs review.' : lines.join('\n'), data: { items } };
        }
        if (args.verdict === undefined) throw new TidepoolError('invalid_input', 'verdict: approve or reject', { field: 'verdict' });
        const r = await memory.review({ id: args.id, verdict: args.verdict });
        const text = r.kind === 'rejected' ? `${r.id} rejected: forgotten.` : `${r.id} approved: now ${r.status}${r.replaced ? `, replaces ${r.replaced}` : ''}.`;
        return { text, data: { ...r } };
      },
    });

    for (const [name, title, part] of PROMPTS) {
      server.registerPrompt(
        name,
        { title, description: `Run tonight's sleep yourself; this part covers ${part}.` },
        () => ({
          description: title,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text:
                  `It is night: consolidate your memory yourself. This part covers ${part}; the night runs every step in order ` +
                  '(solidify → librarian → comb → drift → dream → lifecycle → products → briefing), so answer whatever packet comes.\n' +
                  '1. Call sleep_status to see what waits.\n2. Call sleep_next (force: true to sleep with few episodes).\n' +
                  "3. Read the packet's instructions and input; answer with JSON only via sleep_submit.\n" +
                  '4. Repeat with the packet each reply gives you until the night is over, then read the briefing headline.',
              },
            },
          ],
        }),
      );
    }
  },
};
