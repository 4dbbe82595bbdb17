import { describe, expect, it } from 'vitest';
import { contentTokens, findContradiction, hasNegation, overlapCoefficient } from './contradiction-policy.js';

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
