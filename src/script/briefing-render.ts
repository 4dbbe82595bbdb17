/** The morning briefing, rendered only from the night's own log, so it cannot invent anything (SEEDS §3.6). */

import { utcDay } from '../core/clock.js';

/** A knowledge entry as the briefing names it. */
export interface BriefItem {
  id: number;
  kind?: string;
  content: string;
}

/** What one night did, step by step; the night fills it, the briefing only reads it. */
export interface NightLog {
  space: string;
  startedAt: number;
  finishedAt: number;
  /** `none`, `openai:<model>`, `anthropic:<model>`, `sampling` or `agent`. */
  model: string;
  /** Eligible episodes the night consumed (the headline's "from N episodes"). */
  episodes: number;
  created: BriefItem[];
  reinforced: BriefItem[];
  forgotten: BriefItem[];
  promoted: BriefItem[];
  superseded: Array<{ old: BriefItem; by: BriefItem }>;
  /** Provisional entries quarantined for contradicting reliable ones: the "Needs review" list. */
  quarantined: Array<{ entry: BriefItem; conflictsWith: BriefItem; reason: string }>;
  openProblems: BriefItem[];
  /** Briefing-only ideas (SEEDS §3.5), never stored as knowledge. */
  ideas: Array<{ problem: string; nextStep: string }>;
  gaps: Array<{ topic: string; mentions: number; degree: number }>;
  recipes: Array<{ tools: string[]; sessions: number }>;
  /** The PII watch's counts; the names themselves never enter the log. */
  pii: { names: number; replacements: number; overLimit: number };
  /**
   * Rows holding personal data in clear (e-mail, phone, IBAN, card, address; `name` when the PII night watch
   * reported a private person's name), for review: the row's id and the kinds, never the values.
   */
  piiFlags: Array<{ ref: string; kinds: string[] }>;
  counts: {
    narratives: number;
    dreams: number;
    merged: number;
    linked: number;
    archived: number;
    dropped: number;
  };
  selfImageUpdated: boolean;
  /** Steps or packets skipped (bad model answer twice, model error, no model). */
  skipped: Array<{ step: string; reason: string }>;
  /** Why each gated fixed step (comb, dream, PII watch) asked the model tonight or did not. */
  steps: Array<{ step: string; ran: boolean; reason: string }>;
  /** Proposals refused by the schema, secret or scope checks, and invalid items dropped from answers. */
  rejected: number;
  droppedItems: number;
  /** `cached`: of the input in `used`, what a provider served from its prompt cache (counted apart, issue 18). */
  tokens: { budget: number; used: number; byStep: Record<string, number>; cached?: number };
  /** Work packets that did not fit the budget and wait for the next night. */
  deferred: number;
}

/** An empty log for a night starting at `startedAt`; the night fills it in as it goes. */
export function emptyNightLog(space: string, startedAt: number, model: string, budget: number): NightLog {
  return {
    space,
    startedAt,
    finishedAt: startedAt,
    model,
    episodes: 0,
    created: [],
    reinforced: [],
    forgotten: [],
    promoted: [],
    superseded: [],
    quarantined: [],
    openProblems: [],
    ideas: [],
    gaps: [],
    recipes: [],
    pii: { names: 0, replacements: 0, overLimit: 0 },
    piiFlags: [],
    counts: { narratives: 0, dreams: 0, merged: 0, linked: 0, archived: 0, dropped: 0 },
    selfImageUpdated: false,
    skipped: [],
    steps: [],
    rejected: 0,
    droppedItems: 0,
    tokens: { budget, used: 0, byStep: {} },
    deferred: 0,
  };
}

/** The sections both versions share (SEEDS §3.6, agent version). */
export interface AgentBriefing {
  newKnowledge: string[];
  openProblems: string[];
  warnings: string[];
  needsReview: string[];
  ideas: string[];
  piiWatch: string | null;
}

/** The human version: the same plus topics worth exploring. */
export interface HumanBriefing extends AgentBriefing {
  worthExploring: string[];
}

/** A rendered briefing, dated by the UTC day the night finished. */
export interface Briefing {
  day: string;
  headline: string;
  agent: AgentBriefing;
  human: HumanBriefing;
  /** The human version as markdown (the `/briefing` page). */
  markdown: string;
  /** The agent version as markdown (`briefing` tool, wake state). */
  agentMarkdown: string;
}

/** Each line names one entry; long contents are cut so the briefing stays a glance. */
const LINE_CHARS = 200;

/** SEEDS §3.6, exact: `While you were away: {new} new, {reinforced} reinforced, {forgotten} forgotten from {episodes} episodes.` */
export function briefingHeadline(
  log: Pick<NightLog, 'created' | 'reinforced' | 'forgotten' | 'episodes'>,
): string {
  return `While you were away: ${log.created.length} new, ${log.reinforced.length} reinforced, ${log.forgotten.length} forgotten from ${log.episodes} episodes.`;
}

/** Renders both versions from `log` alone. */
export function renderBriefing(log: NightLog): Briefing {
  const agent: AgentBriefing = {
    newKnowledge: [
      ...log.created.map((k) => `${k.kind ?? 'knowledge'}: ${clip(k.content)}`),
      ...log.superseded.map((s) => `updated: ${clip(s.by.content)} (replaces: ${clip(s.old.content)})`),
      ...log.promoted.map((k) => `now reliable: ${clip(k.content)}`),
    ],
    openProblems: log.openProblems.map((k) => clip(k.content)),
    warnings: warnings(log),
    needsReview: [
      ...log.quarantined.map(
        (q) =>
          `"${clip(q.entry.content)}" contradicts reliable "${clip(q.conflictsWith.content)}" (${q.reason}) [#${q.entry.id}]`,
      ),
      ...log.piiFlags.map(
        (f) => `${f.ref} holds personal data in clear (${f.kinds.map(kindName).join(', ')}): keep, edit or forget it`,
      ),
    ],
    ideas: log.ideas.map((i) => `${clip(i.problem)} → ${clip(i.nextStep)}`),
    piiWatch:
      log.pii.names === 0
        ? null
        : `The PII night watch found ${log.pii.names} name${log.pii.names === 1 ? '' : 's'} of private people; the rows are listed under Needs review and the names are hidden from the model from now on.` +
          (log.pii.overLimit > 0 ? ` ${log.pii.overLimit} more wait for the next night.` : ''),
  };
  const human: HumanBriefing = {
    ...agent,
    worthExploring: log.gaps.map(
      (g) => `${g.topic} (mentioned ${plural(g.mentions, 'time')}, ${plural(g.degree, 'link')})`,
    ),
  };
  const day = utcDay(log.finishedAt);
  const headline = briefingHeadline(log);
  return {
    day,
    headline,
    agent,
    human,
    markdown: toMarkdown(day, headline, human),
    agentMarkdown: toMarkdown(day, headline, agent),
  };
}

function warnings(log: NightLog): string[] {
  const w: string[] = [];
  if (log.model === 'none') w.push('No model is configured: only the deterministic steps ran.');
  for (const s of log.skipped) w.push(`Step ${s.step} was skipped: ${clip(s.reason)}`);
  if (log.deferred > 0) {
    w.push(
      `${plural(log.deferred, 'work packet')} did not fit tonight's token budget; ${log.deferred === 1 ? 'it waits' : 'they wait'} for the next night.`,
    );
  }
  if (log.rejected > 0) {
    w.push(`${plural(log.rejected, 'proposal')} failed the format, secret or scope checks; not applied.`);
  }
  if (log.droppedItems > 0) w.push(`${plural(log.droppedItems, 'invalid item')} dropped from model answers.`);
  if (log.tokens.used > log.tokens.budget)
    w.push(`The night used ${log.tokens.used} tokens, over its budget of ${log.tokens.budget}.`);
  return w;
}

function toMarkdown(day: string, headline: string, b: AgentBriefing | HumanBriefing): string {
  const sections: Array<[string, string[]]> = [
    ['New knowledge', b.newKnowledge],
    ['Open problems', b.openProblems],
    ['Needs review', b.needsReview],
    ['Ideas', b.ideas],
    ['Warnings', b.warnings],
    ['PII watch', b.piiWatch === null ? [] : [b.piiWatch]],
    ['Worth exploring', 'worthExploring' in b ? b.worthExploring : []],
  ];
  const body = sections
    .filter(([, lines]) => lines.length > 0)
    .map(([title, lines]) => `## ${title}\n\n${lines.map((l) => `- ${l}`).join('\n')}`);
  return [`# Briefing ${day}`, headline, ...body].join('\n\n') + '\n';
}

const KIND_NAMES: Record<string, string> = {
  email: 'e-mail address',
  phone: 'phone number',
  iban: 'IBAN',
  card: 'card number',
  address: 'postal address',
  name: "a private person's name",
};

function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind;
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= LINE_CHARS ? one : `${one.slice(0, LINE_CHARS - 1)}…`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
