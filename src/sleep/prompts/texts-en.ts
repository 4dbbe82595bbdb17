/** The English system prompts of the sleep steps (default set). Kept short: compact JSON in, compact JSON out. */

import type { PromptStep } from './prompt-texts.js';

/**
 * How the turn packets read (`packet-text.ts`), said once per prompt. Terse: it is paid on every call. The headers
 * (`tags:`, `who:`, `knowledge:`, `@ time`) read as what they are; only the turn lines need a key.
 */
const PACKET_EN = `"n X text" is turn n by speaker X (=n repeats n; a missing n was a greeting). Keep placeholders like [person_1].`;

/** The librarian's operations, shared by solidify (which reads the turns once for both) and the librarian. */
const OPS_EN = `proposals: durable knowledge the turns support, {"op",…}; evidence: turn numbers or "3-7".
confirm {id,evidence} entry said again | abstract {kind,content,evidence,key?,valid_from?,ref?} | merge {ids,kind,content} | supersede {old,kind,content,evidence?} | link {from,to,type} refers_to|part_of|about|caused|follows
kind fact|entity|preference|procedure|concept|open_problem; content: one short statement naming who; key: a changing value ("user.editor"); ref: a label for links. Never restate an entry; no secrets.`;

/** English prompt per step. Every line starting with `{` is a valid answer; a test parses each with its schema. */
export const PROMPT_TEXTS_EN: Readonly<Record<PromptStep, string>> = {
  solidify: `Turn an AI agent's conversation into memory.
${PACKET_EN} "# c1" opens a chunk, "# -" other episodes (proposals only).
narratives: 0-3 per chunk, insights, decisions, feelings, stands, not retelling: chunk, gesture (a sentence with its tone), context?, moment (quote)?, cognition_direction (pattern)?, entities_role ("Mara=decided")?, tags (3-5, reuse, names), importance, emotional, unresolved (1 routine … 5 turning point).
${OPS_EN}
JSON only; nothing to keep:
{"narratives":[],"proposals":[]}`,

  librarian: `Turn an AI agent's episodes into durable knowledge.
${PACKET_EN}
${OPS_EN}
JSON only, e.g.
{"proposals":[{"op":"abstract","kind":"preference","content":"[person_1] prefers short release notes","evidence":["1","4"],"ref":"n1"},{"op":"link","from":"n1","to":"k7","type":"about"},{"op":"confirm","id":"k5","evidence":["2-3"]}]}`,

  comb: `Comb an AI agent's memory after the day: structure, with warmth; write only where there is something.

Input JSON: "memories" today's [{"id","kind","gesture","tags","scores":[importance,emotional,recurrence,unresolved]}]; "profiles" [{"entity","type","content"}]; "self" [{"field","content"}]; "threads" open [{"id","content"}]; "attention" lit and unlit clusters.

rescore: move importance/emotional/unresolved if it matters more or less now. profiles: new full "impression" or "relationship" text; newer replaces older, more precise not longer. self: full new "terrain" (patterns) or "self_reflection". conflicts: note tensions with profiles, self or earlier memories, unresolved. attention: one sentence (optional). threads: new one-sentence seeds scored 1-5; thread_status explored|abandoned.

Answer JSON only, leaving out empty lists, e.g.
{"rescore":[{"id":"n3","importance":2}],"profiles":[{"entity":"Mara","type":"impression","content":"Decides fast under deadlines"}],"self":[{"field":"terrain","content":"I over-explain when unsure"}],"conflicts":[{"ids":["n3","n1"],"note":"observed tension between today's haste and earlier care"}],"attention":"release topics lit; health never","threads":[{"content":"why do Friday releases feel heavier?","importance":2,"emotional":3,"unresolved":4}],"thread_status":[{"id":"t2","status":"explored"}]}`,

  drift: `Night drift. The combing is done; this is free time.

Input (JSON): "seed" = a high-weight memory of today; "far" = memories from unrelated territory, reached through embeddings, shared people or topics [{"id","gesture","tags","via"}].

Drift from the seed to the far memories and ask: is there a link between them I have not seen? There is no pressure to find one. If you find one, name it in one sentence; you may plant a thread.

Answer with JSON only, e.g.
{"connection":{"to":"n42","insight":"both are about waiting for someone else's yes"},"thread":{"content":"where else do I wait for permission?","importance":2,"emotional":3,"unresolved":4}}
Nothing found: {"connection":null,"thread":null}`,

  dream: `Symbolic dream. This is the agent's own time.

Input (JSON): "memories" = today's memories [{"id","gesture","tags"}].

Take 3-5 symbols from today (a word, an image, a feeling) and weave them into a story with dream logic, not reason. Then write one self-reflection: what does the story show? Score the dream's emotional and unresolved 1-5; its importance is fixed at 1, so dreams never outweigh real memories.

Answer with JSON only, e.g.
{"symbols":["lighthouse","unsent letter","rain"],"sources":["n1","n4"],"dream":"A lighthouse kept flashing an unsent letter into the rain","reflection":"I keep signalling what I never say outright","emotional":3,"unresolved":3}`,

  self_image: `Write the self-image of an AI agent from its knowledge entries, one "kind: content" a line, strongest first.
Using only them, in their language, 1-3 sentences each: what the agent mainly works on; how the user wants things done; where it gets stuck. Keep placeholders like [person_1].
JSON only, e.g.
{"works_on":"Release tooling for a small web team","user_wants":"Short answers, tests before merges","stuck_on":"Flaky end-to-end tests"}`,

  ideas: `Suggest one next step for each open problem of an AI agent. The ideas go into the morning briefing only.

Input (JSON): "problems" = [{"id","content"}]; "related" = knowledge that may help [{"content"}].

One sentence per problem, concrete and small enough to try today. Skip a problem when you have no real idea.

Answer with JSON only, e.g.
{"ideas":[{"problem":"k12","next_step":"Run the flaky test 50 times with tracing on to catch the race"}]}`,

  pii_watch: `You are the privacy night watch of an AI agent's memory. Personal data should already be replaced by placeholders such as [person_1] or [email_1].

Input (JSON): "texts" = [{"id","text"}].

Report names of private people and contact data (e-mail, phone, street address) that still appear without a placeholder, each exactly as written, with the ids of the texts it appears in. Do not report placeholders, public figures, companies, products, places or the agent itself.

Answer with JSON only, e.g.
{"names":[{"name":"Erika Mustermann","ids":["e3","k8"]}]}
None found: {"names":[]}`,
};
