import { describe, expect, it } from 'vitest';
import { DEFAULT_TIDE_CONFIG, TIDE_CONFIG_KEYS, parseTideConfig, renderTideConfig } from './tide-config.js';

describe('tide config', () => {
  it('has the eleven keys of the seed with their original defaults, in order', () => {
    expect(TIDE_CONFIG_KEYS).toEqual([
      'hotKeepDays',
      'promoteHits',
      'coldPromoteHits',
      'pinMaxDays',
      'coldMaxFiles',
      'hotMaxFiles',
      'sectionWarn',
      'searchLimit',
      'searchContext',
      'autoTend',
      'agentsHint',
    ]);
    expect(DEFAULT_TIDE_CONFIG).toEqual({
      hotKeepDays: 7,
      promoteHits: 3,
      coldPromoteHits: 5,
      pinMaxDays: 90,
      coldMaxFiles: 120,
      hotMaxFiles: 0,
      sectionWarn: 30,
      searchLimit: 8,
      searchContext: 3,
      autoTend: true,
      agentsHint: true,
    });
  });

  it('round-trips the rendered defaults without warnings', () => {
    const parsed = parseTideConfig(renderTideConfig({ ...DEFAULT_TIDE_CONFIG }));
    expect(parsed).toEqual({ config: DEFAULT_TIDE_CONFIG, extra: {}, warnings: [] });
  });

  it('falls back per key on a bad value and keeps unknown keys', () => {
    const parsed = parseTideConfig(JSON.stringify({ hotKeepDays: 'seven', promoteHits: 2, theme: 'dark' }));
    expect(parsed.config.hotKeepDays).toBe(7);
    expect(parsed.config.promoteHits).toBe(2);
    expect(parsed.extra).toEqual({ theme: 'dark' });
    expect(parsed.warnings.join('\n')).toMatch(/hotKeepDays/);
    expect(parsed.warnings.join('\n')).toMatch(/unknown key theme/);
    expect(renderTideConfig(parsed.config, parsed.extra)).toMatch(/"theme": "dark"/);
  });

  it('uses the defaults with a warning when the file is not JSON', () => {
    const parsed = parseTideConfig('{ hotKeepDays: 7');
    expect(parsed.config).toEqual(DEFAULT_TIDE_CONFIG);
    expect(parsed.warnings).toHaveLength(1);
  });
});
