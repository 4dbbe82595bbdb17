/** The TypeScript tokenizer PostgreSQL indexes with yields FTS5's own terms, checked against SQLite's FTS5 itself. */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticEpisodes } from '../src/bench/scale/synthetic-episodes.js';
import { ADJECTIVES, NOUNS, VERBS } from '../src/bench/scale/vocabulary.js';
import { fts5Terms, porterStem, porterStemUncached, unicode61 } from '../src/store/sql/fts5-tokens.js';
import { tsqueryLiteral, tsvectorLiteral } from '../src/store/postgres/pg-lexemes.js';

const TOKENIZE = 'porter unicode61 remove_diacritics 2';

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize='${TOKENIZE}');
           CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
});
afterAll(() => db.close());

/** FTS5's terms of each text, in token order. */
function fts5Says(texts: readonly string[]): string[][] {
  db.exec('DELETE FROM t');
  const ins = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)');
  texts.forEach((text, i) => ins.run(i + 1, text));
  const out: string[][] = texts.map(() => []);
  const rows = db.prepare('SELECT doc, term, offset FROM v ORDER BY doc, offset').all() as Array<{ doc: number; term: string; offset: number }>;
  for (const r of rows) out[r.doc - 1]![r.offset] = r.term;
  return out;
}

// Porter's own test words and the suffix rules' edge cases, plus what a memory holds: names, numbers, code, mixed scripts.
const WORDS = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping
tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci digitizer
conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness
hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical
hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement
adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate rate
cease controll roll generalizations oscillators yes eed bed ied ies sses ying eing agreed disagreed knitting
skies dying lying tying sly spy really reallyy abbeys monkeys troubling e y ye yy eye`;
const SPECIAL = [
  'Café naïve résumé Ångström façade Zürich Øresund straße ŒUVRE élève',
  'e\u0301cole cafe\u0301 combining a\u0308b marks \u0301leading',
  "don't it's O'Reilly rock'n'roll e-mail foo_bar foo-bar a.b.c 3.14 1,000 v2.0 #tag @user",
  'https://example.com/path?q=1&x=y user@example.com C:\\Users\\x /usr/local/bin',
  '用户 爱 喝 咖啡 ， 我们 在 东京 开会 。 咖啡s testing咖啡 咖啡ing',
  '日本語のテキスト 한국어 텍스트 Русский текст работающих Ελληνικά κείμενα',
  'ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ ① ½ ² ٣ 𝐛𝐨𝐥𝐝 😀 emoji🙂text',
  `${'x'.repeat(70)}ing ${'ab'.repeat(40)}ed supercalifragilisticexpialidociousnesses`,
  'ALLCAPS MixedCase camelCaseWords snake_case_words UPPERING',
  'µs ſtraße ϐeta ςσ Ꭰꭰ ǡǠ ₺20 done✅ ok🙂ok a\u0305b',
  '',
  '   ...   ',
];

describe('fts5Terms', () => {
  it('matches FTS5 on porter edge cases and mixed scripts', () => {
    const texts = [...WORDS.split(/\s+/), ...SPECIAL];
    const want = fts5Says(texts);
    texts.forEach((text, i) => expect([text, fts5Terms(text)]).toEqual([text, want[i]]));
  });

  it('matches FTS5 on the scale corpus and its whole vocabulary', () => {
    const gen = syntheticEpisodes({ seed: 3 });
    const lines = Array.from({ length: 3000 }, () => gen.next().value.text);
    const vocab = [...NOUNS, ...ADJECTIVES, ...VERBS.flat()];
    const texts = [...lines, ...vocab];
    const want = fts5Says(texts);
    const differ = texts.filter((text, i) => JSON.stringify(fts5Terms(text)) !== JSON.stringify(want[i]));
    expect(differ).toEqual([]);
  });

  it('gives the same terms from its caches as computed afresh, on a mixed English/Chinese corpus', () => {
    const gen = syntheticEpisodes({ seed: 5 });
    const han = '用户爱喝咖啡我们在东京开会明天下午讨论项目进度预算风险测试发布';
    let rng = 7;
    const pick = (n: number) => ((rng = (rng * 1103515245 + 12345) % 2 ** 31), rng % n);
    const texts = Array.from({ length: 2000 }, (_, i) => {
      const english = gen.next().value.text;
      const chinese = Array.from({ length: 3 + pick(6) }, () => han.slice(pick(han.length - 2), pick(han.length - 2) + 2)).join(' ');
      return i % 3 === 0 ? chinese : i % 3 === 1 ? `${english} ${chinese}` : `${english} Testing咖啡 RUNNING ${i}`;
    });
    const fresh = texts.map((t) => unicode61(t).map(porterStemUncached));
    // Twice over: the first pass fills the caches, the second reads them.
    for (let pass = 0; pass < 2; pass++) {
      const differ = texts.filter((t, i) => JSON.stringify(fts5Terms(t)) !== JSON.stringify(fresh[i]));
      expect(differ).toEqual([]);
    }
    expect(fresh.flat().some((t) => /[\u4e00-\u9fff]/.test(t))).toBe(true);
    expect(fresh.flat().some((t) => t === 'run')).toBe(true);
  });

  it('stems as Porter does', () => {
    expect(['caresses', 'ponies', 'relational', 'hopping', 'generalizations'].map(porterStem)).toEqual([
      'caress', 'poni', 'relat', 'hop', 'gener',
    ]);
  });
});

describe('PostgreSQL literals', () => {
  it('weights fields and numbers positions across them, a position apart so no phrase spans two', () => {
    expect(tsvectorLiteral([['Coffee cups', 'A'], ['Hana', 'B'], ['more coffee', 'C']])).toBe(
      "'coffe':1A,7C 'cup':2A 'hana':4B 'more':6C",
    );
  });

  it('builds the tsvector text a plain reading of the fields gives, repeats and long fields included', () => {
    // The reference: every token of every line numbered in order, a position left out between fields, clamped at
    // 16383 and each position kept once (a tsvector holds no repeat: the server drops them from text and refuses
    // them in binary), at most 256 positions per lexeme, lexemes in first-seen order.
    const reference = (fields: Array<[string, 'A' | 'B' | 'C']>): string => {
      const at = new Map<string, string[]>();
      const last = new Map<string, number>();
      let p = 0;
      for (const [text, w] of fields) {
        for (const line of text.split('\n')) {
          for (const term of unicode61(line).map(porterStemUncached)) {
            p++;
            const list = at.get(term) ?? [];
            const pos = Math.min(p, 16383);
            if (list.length < 256 && last.get(term) !== pos) {
              list.push(`${pos}${w}`);
              last.set(term, pos);
            }
            at.set(term, list);
          }
        }
        p++;
      }
      return [...at].map(([t, l]) => `'${t}':${l.join(',')}`).join(' ');
    };
    const gen = syntheticEpisodes({ seed: 9 });
    const lines = Array.from({ length: 400 }, () => gen.next().value.text);
    const cases: Array<Array<[string, 'A' | 'B' | 'C']>> = lines.map((body, i) => [
      [`${body} 咖啡 用户 Testing咖啡`, 'A'],
      [`Hana #tag${i % 7}`, 'B'],
      [lines.slice(Math.max(0, i - 5), i).join('\n'), 'C'],
    ]);
    // Every character JS's trim() strips, around and between lines (the literal trims each line to find it remembered).
    const spaces = '\t\u000b\f \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\r';
    cases.push([[`${spaces}caf\u00e9\u0301${spaces}\n${spaces}running${spaces}`, 'A'], [spaces, 'B'], [` ${lines[0]} \n ${lines[1]} `, 'C']]);
    cases.push([[Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? 'coffee' : `w${i % 50}`)).join(' '), 'A'], ['', 'B'], ['tail', 'C']]);
    const differ = cases.filter((f) => tsvectorLiteral(f) !== reference(f));
    expect(differ).toEqual([]);
  });

  it('quotes lexemes and builds phrases and prefixes', () => {
    expect(tsqueryLiteral('running shoes', false)).toBe("'run' <-> 'shoe'");
    expect(tsqueryLiteral('咖', true)).toBe("'咖':*");
    expect(tsqueryLiteral('...', false)).toBeUndefined();
  });
});
