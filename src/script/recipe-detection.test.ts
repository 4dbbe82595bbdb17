import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesSomething, detectRecipes, recipeContent, stepName, type ToolEpisode } from './recipe-detection.js';

/** Builds a session's calls from `tool` or `tool!` (failed), one minute apart. */
function session(name: string, ...calls: string[]): ToolEpisode[] {
  return calls.map((c, i) => ({
    session: name,
    tool: c.replace('!', ''),
    ok: !c.endsWith('!'),
    at: i * 60_000,
  }));
}

describe('detectRecipes', () => {
  it('finds a 3-step sequence repeated in 2 sessions, without its sub-sequences', () => {
    const r = detectRecipes([
      ...session('s1', 'search', 'read', 'edit'),
      ...session('s2', 'ls', 'search', 'read', 'edit'),
    ]);
    expect(r).toEqual([
      {
        tools: ['search', 'read', 'edit'],
        steps: [{ tool: 'search', step: 'search' }, { tool: 'read', step: 'read' }, { tool: 'edit', step: 'edit' }],
        sessions: ['s1', 's2'],
        count: 2,
        key: 'recipe:search>read>edit',
      },
    ]);
    expect(recipeContent(r[0]!)).toBe('Recipe: search → read → edit (succeeded in 2 sessions)');
  });

  it('needs 2 sessions: repeats inside one session are not a recipe', () => {
    expect(detectRecipes(session('s1', 'a', 'b', 'a', 'b', 'a', 'b'))).toEqual([]);
  });

  it('never spans a failed call', () => {
    expect(detectRecipes([...session('s1', 'a', 'b!', 'c'), ...session('s2', 'a', 'b!', 'c')])).toEqual([]);
    expect(detectRecipes([...session('s1', 'a', 'b', 'c!'), ...session('s2', 'a', 'b', 'c')])).toEqual([
      { tools: ['a', 'b'], steps: [{ tool: 'a', step: 'a' }, { tool: 'b', step: 'b' }], sessions: ['s1', 's2'], count: 2, key: 'recipe:a>b' },
    ]);
  });

  it('caps sequences at 4 calls', () => {
    const calls = ['a', 'b', 'c', 'd', 'e'];
    const r = detectRecipes([...session('s1', ...calls), ...session('s2', ...calls)]);
    expect(r.map((x) => x.tools.join(''))).toEqual(['abcd', 'bcde']);
  });

  it('keeps a shorter sequence that also occurs in more sessions than the longer one', () => {
    const r = detectRecipes([
      ...session('s1', 'a', 'b', 'c'),
      ...session('s2', 'a', 'b', 'c'),
      ...session('s3', 'a', 'b', 'x!'),
    ]);
    expect(r.map((x) => [x.tools.join(''), x.sessions.length])).toEqual([
      ['abc', 2],
      ['ab', 3],
    ]);
  });

  it('skips windows that repeat a single tool', () => {
    expect(detectRecipes([...session('s1', 'read', 'read'), ...session('s2', 'read', 'read')])).toEqual([]);
  });

  it('orders calls by time, not by input order', () => {
    const s2 = session('s2', 'a', 'b').reverse();
    expect(detectRecipes([...session('s1', 'a', 'b'), ...s2])).toHaveLength(1);
  });

  it('does not depend on the order episodes arrive in (property)', () => {
    const calls = [
      ...session('s1', 'a', 'b', 'c', 'x!', 'a', 'b'),
      ...session('s2', 'q', 'a', 'b', 'c'),
      ...session('s3', 'b', 'c'),
    ];
    const expected = detectRecipes(calls);
    expect(expected.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.shuffledSubarray(calls, { minLength: calls.length }), (shuffled) => {
        expect(detectRecipes(shuffled)).toEqual(expected);
      }),
      { seed: 5 },
    );
  });
});

/** A session of shell commands run through Claude Code's Bash tool, as an import records the calls. */
function shell(name: string, day: number, ...commands: string[]): ToolEpisode[] {
  return commands.map((command, i) => ({
    session: name,
    tool: 'Bash',
    ok: !command.endsWith('!'),
    at: day * 86_400_000 + i * 60_000,
    input: JSON.stringify({ command: command.replace(/!$/, ''), description: 'step' }),
  }));
}

describe('recipes finish a task and keep their inputs', () => {
  it('names a shell step by program and subcommand, and a chain by its last command', () => {
    expect(stepName('Bash', '{"command":"git commit -m \\"fix: race\\""}')).toEqual({ step: 'Bash: git commit', command: 'git commit -m "fix: race"' });
    expect(stepName('Bash', '{"command":"npm run build -- --prod"}').step).toBe('Bash: npm run build');
    expect(stepName('Bash', '{"command":"cd web && npm publish --access public"}').step).toBe('Bash: npm publish');
    expect(stepName('Bash', '{"command":"ls -la src"}').step).toBe('Bash: ls');
    expect(stepName('Edit', '{"file_path":"src/a.ts"}')).toEqual({ step: 'Edit' });
  });

  it('a look or a check ends no task; a commit, a publish, an edit do', () => {
    for (const look of ['git status', 'git diff', 'npm run lint', 'npm test', 'npx tsc', 'ls', 'cat'])
      expect(changesSomething({ tool: 'Bash', step: `Bash: ${look}` }), look).toBe(false);
    for (const act of ['git commit', 'git push', 'npm publish', 'npm run build', 'kubectl apply'])
      expect(changesSomething({ tool: 'Bash', step: `Bash: ${act}` }), act).toBe(true);
    expect(changesSomething({ tool: 'Read', step: 'Read' })).toBe(false);
    expect(changesSomething({ tool: 'git_status', step: 'git_status' })).toBe(false);
    expect(changesSomething({ tool: 'run_tests', step: 'run_tests' })).toBe(false);
    expect(changesSomething({ tool: 'deploy', step: 'deploy' })).toBe(true);
    expect(changesSomething({ tool: 'Edit', step: 'Edit' })).toBe(true);
  });

  it('drops the generic pair git status → npm run lint, keeps build → test → publish with its inputs', () => {
    const week = [
      ...shell('mon', 0, 'git status', 'npm run lint', 'npm run build', 'npm test', 'npm publish --access public'),
      ...shell('tue', 1, 'git status', 'npm run lint', 'git diff'),
      ...shell('wed', 2, 'git status', 'npm run lint', 'git log --oneline -5'),
      ...shell('thu', 3, 'git pull', 'npm run build', 'npm test', 'npm publish --access public --tag next'),
      ...shell('fri', 4, 'git status', 'npm run lint'),
    ];
    const r = detectRecipes(week);
    expect(r.map((x) => x.tools)).toEqual([['Bash: npm run build', 'Bash: npm test', 'Bash: npm publish']]);
    expect(r[0]!.sessions).toEqual(['mon', 'thu']);
    // The newest run's inputs, verbatim.
    expect(r[0]!.steps.map((s) => s.input)).toEqual(['npm run build', 'npm test', 'npm publish --access public --tag next']);
    expect(recipeContent(r[0]!)).toBe(
      'Recipe: Bash `npm run build` → Bash `npm test` → Bash `npm publish --access public --tag next` (succeeded in 2 sessions)',
    );
  });
});
