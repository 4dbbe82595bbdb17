/**
 * The text packet of the steps that read the day's turns (solidify, librarian): one line per turn with a packet-local
 * number, speakers as letters declared once, the time only where it moved (the year only where it changed). Packets
 * are paid for every night, and a line `12 C text` costs about 3 tokens beside its text where a JSON row
 * `["e1234",0,"text","13:56"]` cost 9-10.
 */

import { clip, isoMinute, type PacketTurn } from './prompt.js';
import { foldTurns, type FoldStats } from './fold-turns.js';

/** Minutes after the last time shown before a turn shows its time again: half an hour is precise enough for a memory. */
export const TIME_STEP_MINUTES = 30;

/** A group of turns under one header: a solidify chunk (`# c1`), or the whole librarian group (no id). */
export interface TurnBlock {
  id?: string;
  turns: PacketTurn[];
}

/** A knowledge entry as a packet shows it. */
export interface PacketEntry {
  id: string;
  kind: string;
  status: string;
  key?: string | null;
  content: string;
}

/** What goes into one packet; every text is already redacted. */
export interface PacketInput {
  tags?: readonly string[];
  knowledge?: readonly PacketEntry[];
  blocks: readonly TurnBlock[];
  /** Characters a turn is cut to (after folding). */
  turnChars: number;
}

/** A rendered packet: its text and the map from turn numbers back to episode ids (for the answer's evidence). */
export interface PacketText {
  text: string;
  /** Turn number (1-based, in packet order) → the episode id it stands for. */
  refs: Map<number, string>;
  fold: FoldStats;
}

/** A speaker's label: `Caroline (user)`, `assistant`, `tool:grep`. */
function labelOf(t: PacketTurn): string {
  return t.speaker ? `${t.speaker} (${t.role})` : t.role;
}

/**
 * Short speaker letters, declared once: the label's first letter (placeholders like `[person_1]` give `P`), with
 * a digit where two labels share it (`C`, `C2`).
 */
function speakerLetters(labels: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const label of labels) {
    const base = (label.match(/\p{L}/u)?.[0] ?? 'S').toUpperCase();
    let letter = base;
    for (let i = 2; used.has(letter); i += 1) letter = `${base}${i}`;
    used.add(letter);
    out.set(label, letter);
  }
  return out;
}

/**
 * The speaker legend. When every turn has a named speaker of one role (two people talking), the role is said once:
 * `who (user): C=Caroline M=Melanie` (4 tokens fewer than `who: C=Caroline (user) M=Melanie (user)`).
 */
function whoLine(turns: readonly PacketTurn[], letters: ReadonlyMap<string, string>): string {
  const roles = new Set(turns.map((t) => t.role));
  const [role] = roles;
  if (roles.size === 1 && turns.every((t) => t.speaker)) {
    const names = new Map(turns.map((t) => [labelOf(t), t.speaker!]));
    return `who (${role}): ${[...letters].map(([label, l]) => `${l}=${names.get(label)!}`).join(' ')}`;
  }
  return `who: ${[...letters].map(([label, l]) => `${l}=${label}`).join(' ')}`;
}

/**
 * Renders a packet:
 * ```
 * tags: release, Mara
 * who: M=Mara (user) A=assistant
 * knowledge:
 * k7 fact provisional Mara releases on Fridays
 * # c1
 * @ 2026-11-01 09:03
 * 1 M we ship Friday
 * 2 A =1
 * ```
 * A turn whose text repeats an earlier one says `=n`; a turn that was only filler (greetings, thanks, "ok") is left
 * out, so its number is missing (`fold-turns.ts`); one line never holds a newline.
 */
export function renderPacket(input: PacketInput): PacketText {
  const all = input.blocks.flatMap((b) => b.turns);
  const letters = speakerLetters([...new Set(all.map(labelOf))]);
  const names = all.flatMap((t) => (t.speaker ? [t.speaker] : []));
  const folded = foldTurns(
    all.map((t) => t.text),
    names,
  );
  const lines: string[] = [];
  if (input.tags !== undefined && input.tags.length > 0) lines.push(`tags: ${input.tags.join(', ')}`);
  lines.push(whoLine(all, letters));
  if (input.knowledge !== undefined && input.knowledge.length > 0) {
    lines.push('knowledge:');
    for (const k of input.knowledge) {
      lines.push(`${k.id} ${k.kind} ${k.status}${k.key ? ` key=${oneLine(k.key)}` : ''} ${oneLine(k.content)}`);
    }
  }
  const refs = new Map<number, string>();
  let n = 0;
  let day = '';
  let shown = -Infinity;
  for (const block of input.blocks) {
    if (block.id !== undefined) lines.push(`# ${block.id}`);
    for (const t of block.turns) {
      n += 1;
      refs.set(n, t.id);
      const line = folded.lines[n - 1]!;
      if (line.kind === 'filler') continue;
      const stamp = isoMinute(t.at);
      if (stamp.slice(0, 10) !== day) {
        // A later day of the same year shows its month and day only (`@ 07-17 14:31`, 3 tokens fewer).
        const date = stamp.slice(0, 4) === day.slice(0, 4) ? stamp.slice(5, 10) : stamp.slice(0, 10);
        lines.push(`@ ${date} ${stamp.slice(11, 16)}`);
        shown = t.at;
      } else if (Math.abs(t.at - shown) >= TIME_STEP_MINUTES * 60_000) {
        lines.push(`@ ${stamp.slice(11, 16)}`);
        shown = t.at;
      }
      day = stamp.slice(0, 10);
      const text = line.kind === 'repeat' ? `=${line.of}` : oneLine(clip(compactMedia(line.text), input.turnChars));
      lines.push(`${n} ${letters.get(labelOf(t))!} ${text}`);
    }
  }
  return { text: lines.join('\n'), refs, fold: folded.stats };
}

/**
 * A shared photo's caption as the importers record it, `[image: a photo of a dog]`, reads `[photo: a dog]`: the same
 * words less the captioner's preamble (3 tokens of every caption; LoCoMo's dev split has 602).
 */
export function compactMedia(s: string): string {
  return s.replace(/\[image: an? (?:photo|photograph|photography|picture) of /gi, '[photo: ');
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' / ');
}

/** A packet read back (the mock provider and the test responder answer from it, as a model reads it). */
export interface ParsedPacket {
  tags: string[];
  /** Letter → label. */
  who: Map<string, string>;
  knowledge: Array<{ id: string; kind: string; status: string; content: string }>;
  blocks: Array<{ id: string | undefined; turns: Array<{ n: number; who: string; text: string }> }>;
}

/** Parses a packet rendered by {@link renderPacket}; `=n` repeats are resolved to the text they repeat. */
export function parsePacket(text: string): ParsedPacket {
  const out: ParsedPacket = { tags: [], who: new Map(), knowledge: [], blocks: [] };
  const byN = new Map<number, string>();
  let inKnowledge = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('tags: ')) out.tags = line.slice(6).split(', ').filter((t) => t !== '');
    else if (/^who(?: \([^)]*\))?: /.test(line)) {
      // `who (user): C=Caroline` declares the role once for every speaker; the label reads `Caroline (user)` again.
      const role = line.match(/^who \(([^)]*)\): /)?.[1];
      const legend = line.slice(line.indexOf(': ') + 2);
      for (const m of legend.matchAll(/(\S+?)=(.+?)(?= \S+=|$)/g)) out.who.set(m[1]!, role === undefined ? m[2]! : `${m[2]!} (${role})`);
    } else if (line === 'knowledge:') inKnowledge = true;
    else if (line.startsWith('# ')) {
      inKnowledge = false;
      out.blocks.push({ id: line.slice(2), turns: [] });
    } else if (line.startsWith('@ ')) inKnowledge = false;
    else if (inKnowledge) {
      const m = line.match(/^(\S+) (\S+) (\S+) (?:key=\S+ )?(.*)$/);
      if (m) out.knowledge.push({ id: m[1]!, kind: m[2]!, status: m[3]!, content: m[4]! });
    } else {
      const m = line.match(/^(\d+) (\S+) (.*)$/);
      if (!m) continue;
      const n = Number(m[1]);
      const repeat = m[3]!.match(/^=(\d+)$/);
      const body = repeat ? (byN.get(Number(repeat[1])) ?? '') : m[3]!;
      byN.set(n, body);
      if (out.blocks.length === 0) out.blocks.push({ id: undefined, turns: [] });
      out.blocks[out.blocks.length - 1]!.turns.push({ n, who: m[2]!, text: body });
    }
  }
  return out;
}

/** Turn numbers as evidence is cited, the inverse of {@link resolveTurnRefs}: consecutive runs as ranges ("3-7"). */
export function turnRanges(ns: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j]! + 1) j += 1;
    out.push(j > i ? `${ns[i]}-${ns[j]}` : String(ns[i]));
    i = j + 1;
  }
  return out;
}

/**
 * Maps the evidence an answer gives (turn numbers `3`, ranges `3-7`, or ids) to episode ids through the packet's
 * refs. What is not a number of this packet is kept as written, so the scope check refuses it by name.
 */
export function resolveTurnRefs(items: readonly string[], refs: ReadonlyMap<number, string>): string[] {
  const out: string[] = [];
  for (const raw of items) {
    const item = raw.trim();
    const range = item.match(/^(\d+)\s*[-–]\s*(\d+)$/);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (a <= b && refs.has(a) && refs.has(b)) {
        for (let i = a; i <= b; i += 1) out.push(refs.get(i)!);
        continue;
      }
    }
    const n = /^\d+$/.test(item) ? refs.get(Number(item)) : undefined;
    out.push(n ?? item);
  }
  return [...new Set(out)];
}
