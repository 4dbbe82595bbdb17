import { describe, expect, it } from 'vitest';
import { contentTokens, findContradiction, hasNegation, overlapCoefficient, valueChange, valueSlots } from './contradiction-policy.js';

describe('hasNegation', () => {
  it.each([
    ['The user does not like coffee', true],
    ["The user doesn't like coffee", true],
    ['The user no longer drinks coffee', true],
    ['We never deploy on Fridays', true],
    ['Der Nutzer trinkt keinen Kaffee', true],
    ['用户不再喜欢喝咖啡', true],
    ['用户没有车', true],
    ['The user likes coffee', false],
    ['这个方案不错', false],
    ['非常喜欢咖啡', false],
    ['无论如何都要测试', false],
  ])('%s → %s', (text, negated) => {
    expect(hasNegation(text)).toBe(negated);
  });
});

describe('contentTokens', () => {
  it('drops negations and stop words so both sides of a contradiction share their tokens', () => {
    expect([...contentTokens("The user doesn't like coffee anymore")].sort()).toEqual([
      'coffee',
      'like',
      'user',
    ]);
    expect(overlapCoefficient(contentTokens('用户喜欢喝咖啡'), contentTokens('用户不再喜欢喝咖啡'))).toBe(1);
  });
});

describe('findContradiction', () => {
  const reliable = [
    { id: 1, content: 'The user likes coffee', subject: 'user' },
    { id: 2, content: 'Deploys happen on Fridays', key: 'team.deploy_day' },
    { id: 3, content: '用户喜欢喝咖啡' },
  ];

  it('flags a negated statement about the same subject', () => {
    expect(
      findContradiction({ id: 9, content: 'The user no longer likes coffee', subject: 'User' }, reliable),
    ).toEqual({
      kind: 'contradicts',
      with: 1,
      match: 'same_subject',
      overlap: 1,
    });
  });

  it('flags a negated statement under the same key even with less overlap', () => {
    const v = findContradiction(
      { id: 9, content: 'We do not deploy on Fridays since the outage', key: 'team.deploy_day' },
      reliable,
    );
    expect(v).toMatchObject({ kind: 'contradicts', with: 2, match: 'same_key' });
  });

  it('flags a near-duplicate with opposite polarity even without key or subject (Chinese)', () => {
    expect(findContradiction({ id: 9, content: '用户不再喜欢喝咖啡' }, reliable)).toMatchObject({
      kind: 'contradicts',
      with: 3,
      match: 'near_duplicate',
    });
  });

  it('does not flag agreement, unrelated negations, or itself', () => {
    expect(
      findContradiction({ id: 9, content: 'The user really likes coffee', subject: 'user' }, reliable),
    ).toEqual({ kind: 'none' });
    expect(findContradiction({ id: 9, content: 'The build does not use webpack' }, reliable)).toEqual({
      kind: 'none',
    });
    expect(
      findContradiction({ id: 1, content: 'The user likes coffee', subject: 'user' }, [reliable[0]!]),
    ).toEqual({ kind: 'none' });
  });

  it('needs nearly the same sentence when key and subject differ', () => {
    const longer = { id: 9, content: 'The user does not like tea or coffee in the evening at home' };
    expect(findContradiction(longer, reliable)).toEqual({ kind: 'none' });
    expect(findContradiction({ ...longer, subject: 'user' }, reliable)).toMatchObject({
      kind: 'contradicts',
      with: 1,
    });
  });
});

describe('value changes without a negation', () => {
  const reliable = [
    { id: 1, content: 'The staging Postgres listens on port 6543' },
    { id: 2, content: 'The nightly backup runs at 03:00' },
  ];

  it('flags a changed value of the same subject and attribute', () => {
    expect(findContradiction({ id: 9, content: 'staging Postgres moved to port 5433' }, reliable)).toEqual({
      kind: 'contradicts',
      with: 1,
      match: 'value_change',
      overlap: 0.75,
      change: { attribute: 'port', from: '6543', to: '5433' },
    });
  });

  it('flags a changed time and a changed version', () => {
    expect(findContradiction({ id: 9, content: 'The nightly backup now runs at 04:30' }, reliable)).toMatchObject({
      match: 'value_change',
      change: { from: '03:00', to: '04:30' },
    });
    expect(
      valueChange('The API gateway runs version v3.2 in production', 'The API gateway runs version v2.9 in production'),
    ).toMatchObject({ change: { attribute: 'version', from: 'v2.9', to: 'v3.2' } });
  });

  it('leaves alone the same value, a sentence naming both values, another subject and another attribute', () => {
    expect(findContradiction({ id: 9, content: 'Staging Postgres still listens on port 6543' }, reliable)).toEqual({ kind: 'none' });
    expect(findContradiction({ id: 9, content: 'Staging Postgres moved from port 6543 to port 5433' }, reliable)).toEqual({ kind: 'none' });
    expect(findContradiction({ id: 9, content: 'The production Redis listens on port 6380' }, reliable)).toEqual({ kind: 'none' });
    expect(findContradiction({ id: 9, content: 'The staging Postgres has 16 connections' }, reliable)).toEqual({ kind: 'none' });
    expect(findContradiction({ id: 9, content: 'The deploy runs at 05:00' }, reliable)).toEqual({ kind: 'none' });
  });

  it('reads each value under the word before it, or after it when the sentence opens with it', () => {
    expect(valueSlots('staging Postgres moved to port 5433')).toEqual([{ attribute: 'port', value: '5433' }]);
    expect(valueSlots('3 replicas serve the API')).toEqual([{ attribute: 'replica', value: '3' }]);
  });
});
