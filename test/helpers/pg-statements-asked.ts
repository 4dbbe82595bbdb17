/**
 * Every statement node-postgres was asked while `run` ran, in order: its text, and when it was asked and when it
 * answered on one counter (`asked < other.answered`: sent before the other's answer came back, i.e. pipelined).
 */
import pg from 'pg';

export interface AskedStatement {
  text: string;
  asked: number;
  answered: number;
}

export async function pgStatementsAsked(run: () => Promise<unknown>): Promise<AskedStatement[]> {
  const seen: AskedStatement[] = [];
  let tick = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
    const out = (query as (...a: unknown[]) => unknown).apply(this, a);
    const q = a[0] as string | { text?: string } | undefined;
    if (out instanceof Promise) {
      const s = { text: (typeof q === 'string' ? q : (q?.text ?? '')).trim(), asked: tick++, answered: -1 };
      seen.push(s);
      out.then(() => (s.answered = tick++), () => (s.answered = tick++));
    }
    return out;
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}
