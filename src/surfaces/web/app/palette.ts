/** The colours of style.css (`--accent`, `--warn`, `--line`) for the canvas-drawn charts and graph. */
export const COLORS = {
  accent: '#0b6e8a',
  green: '#5a8f29',
  warn: '#a3580b',
  line: '#d8dee4',
  edge: '#9fb3bf',
};
