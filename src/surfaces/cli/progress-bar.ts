/** A one-line progress bar for long CLI runs, drawn on stderr only when stderr is a terminal. */

/** A bar that can be advanced and finished. */
export interface ProgressBar {
  update(done: number, total: number, label: string): void;
  /** Clears the line so the next output starts clean. */
  finish(): void;
}

const WIDTH = 24;
const silent: ProgressBar = { update() {}, finish() {} };

/**
 * A bar on `stream` when it is a TTY (`isTTY`), else one that draws nothing: logs and pipes get no carriage returns.
 * It redraws only when the whole percentage changes, so 100,000 updates cost a hundred writes.
 */
export function createProgressBar(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressBar {
  if (!stream.isTTY) return silent;
  let last = '';
  let drawn = false;
  return {
    update(done, total, label) {
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const key = `${label}:${Math.floor(share * 100)}`;
      if (key === last) return;
      last = key;
      const filled = Math.round(share * WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
      stream.write(
        `\r\u001b[2K${bar} ${String(Math.floor(share * 100)).padStart(3)}% ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${label}`,
      );
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
      last = '';
    },
  };
}
