/** `matchAll` for the detectors' module-level regexes, without its per-call copy of the RegExp. */

/**
 * Every match of the global regex `re`, as `text.matchAll(re)` from index 0 gives them but without its per-call
 * RegExp copy (a few hundred ns, most of a short text's scan). Leaves `lastIndex` at 0 for the next caller.
 */
export function execAll(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push(m);
    // An empty match would match again at the same index: step one character on, as matchAll does.
    if (m[0].length === 0) re.lastIndex = m.index + (/[uv]/.test(re.flags) && (text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
  }
  re.lastIndex = 0;
  return out;
}
