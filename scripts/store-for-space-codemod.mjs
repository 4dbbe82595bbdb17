// One-off codemod of issue 19.1, kept for merging branches written against the old Store: rewrites
// `X.<entity>.<method>(space, ...rest)` on a Store into `X.forSpace(space).<entity>.<method>(...rest)`.
// Run from the repository root: `node scripts/store-for-space-codemod.mjs` (dry run: counts and the references it
// cannot rewrite), then `WRITE=1 node scripts/store-for-space-codemod.mjs`; `npx tsc --noEmit` shows what is left.
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';
const root = process.cwd();
const cfgPath = path.join(root, 'tsconfig.json');
const cfg = ts.parseJsonConfigFileContent(ts.readConfigFile(cfgPath, ts.sys.readFile).config, ts.sys, root);
const program = ts.createProgram(cfg.fileNames, cfg.options);
const checker = program.getTypeChecker();
const PORTS = new Set(['episodes', 'narratives', 'knowledge', 'identity', 'attention', 'vectors', 'derived', 'continuity', 'journal', 'sleepRuns', 'state']);
const SEARCH = new Set(['lexical', 'substring']);
const isStore = (expr) => {
  const t = checker.getTypeAtLocation(expr);
  const names = [t.symbol?.name, t.aliasSymbol?.name];
  if (t.isUnion()) for (const u of t.types) names.push(u.symbol?.name);
  return names.some((n) => n === 'Store' || n === 'SqlStore');
};
let total = 0;
const manual = [];
for (const sf of program.getSourceFiles()) {
  const file = sf.fileName;
  if (!file.startsWith(root + '/src') && !file.startsWith(root + '/test')) continue;
  if (file.includes('/node_modules/')) continue;
  const text = sf.text;
  const edits = [];
  const visit = (n) => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name) && (PORTS.has(n.name.text) || n.name.text === 'search') && isStore(n.expression)) {
      const port = n.name.text;
      const p = n.parent;
      const call = p && ts.isPropertyAccessExpression(p) && p.expression === n && ts.isCallExpression(p.parent) && p.parent.expression === p ? p.parent : undefined;
      if (port === 'search' && !(call && SEARCH.has(p.name.text))) { ts.forEachChild(n, visit); return; }
      if (!call || call.arguments.length === 0) {
        const lc = sf.getLineAndCharacterOfPosition(n.getStart(sf));
        manual.push(`${path.relative(root, file)}:${lc.line + 1}: ${n.parent.getText(sf).slice(0, 80)}`);
      } else {
        const a0 = call.arguments[0];
        const a0Text = a0.getText(sf);
        // X.port  ->  X.forSpace(a0).port
        edits.push([n.expression.end, n.expression.end, `.forSpace(${a0Text})`]);
        // drop the first argument
        const args = call.arguments;
        const end = args.length > 1 ? args[1].getStart(sf) : a0.end + (text.slice(a0.end).match(/^\s*,/)?.[0].length ?? 0);
        edits.push([a0.getStart(sf), end, '']);
        // rewrite nested calls inside the other arguments (the first one is moved as written)
        for (const a of args.slice(1)) visit(a);
        visit(n.expression);
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!edits.length) continue;
  edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  let out = text;
  for (const [s, e, r] of edits) out = out.slice(0, s) + r + out.slice(e);
  if (process.env.WRITE) fs.writeFileSync(file, out);
  total += edits.length / 2;
}
console.log('rewritten calls', total);
console.log(manual.join('\n'));
