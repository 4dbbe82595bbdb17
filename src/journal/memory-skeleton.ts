/** The annotated skeletons of MEMORY.md and TODO.md laid out on first use; existing files are never touched (SEEDS §2.3). */

/**
 * MEMORY.md: long-lived essentials, read at the start of every session and never archived. The comments say what
 * each section holds and why shorter is better; MEMORY.md names the cold archive in one line only (SEEDS §2.3).
 */
export const MEMORY_SKELETON = `# MEMORY

<!--
Long-lived essentials of this workspace: people's habits, standing rules, pitfalls already fallen into.
This file is read at the start of every session and is never archived, so every line here costs context in
every session. Shorter is better: one line per point; when a point has not mattered for a month, delete it.
Does not belong here: what happened today (that goes in the day file, with journal_add), to-dos (TODO.md),
long logs or transcripts, and never credentials (passwords, tokens, keys) anywhere under memory/.
-->

Cold archive: \`archive/cold/\` (search it with scope=all; read its INDEX.md only when digging).

## People
<!-- Who you work with: names, roles, how they like to be answered, what annoys them. One line each. -->

## Rules
<!-- Standing instructions that apply to every task here: conventions, tools, branches, what needs asking first. -->

## Pitfalls
<!-- Traps already fallen into once: symptom → cause → fix, one line each, so nobody falls in twice. -->

## Pointers
<!-- Where things are: repositories, documents, dashboards, commands. Locations only, never secrets. -->
`;

/** TODO.md: open tasks, one line each; finished items leave, their story lives in the day files. */
export const TODO_SKELETON = `# TODO

<!--
Open tasks of this workspace, one line each: \`- [ ] what (since YYYY-MM-DD)\`.
Tick with \`- [x]\` and delete done items after a few days: the history belongs in the day files.
A short list gets read; a long one gets skipped.
-->

## Now
<!-- In progress. -->

## Next
<!-- Queued, in order. -->

## Waiting
<!-- Blocked: say on whom or on what. -->
`;
