// Small SVG charts for the dashboard (bars, heat cells, a force-laid graph); no library, no network.
const NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes. */
export function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Horizontal bar chart of [{label, value}]. */
export function barChart(rows, { width = 640, unit = '' } = {}) {
  const h = 22, labelW = 200, max = Math.max(1, ...rows.map((r) => r.value));
  const svg = svgEl('svg', { width, height: rows.length * h + 4, role: 'img', class: 'chart' });
  rows.forEach((r, i) => {
    const w = ((width - labelW - 60) * r.value) / max;
    svg.append(svgEl('text', { x: 0, y: i * h + 15 }, r.label.length > 28 ? r.label.slice(0, 27) + '…' : r.label));
    svg.append(svgEl('rect', { x: labelW, y: i * h + 4, width: Math.max(1, w), height: h - 8, fill: r.color ?? '#0b6e8a', rx: 2 }));
    svg.append(svgEl('text', { x: labelW + w + 6, y: i * h + 15 }, `${r.value}${unit}`));
  });
  return svg;
}

/** Heat cells: one square per cluster coloured by its share; never-lit clusters are hollow. */
export function heatCells(rows, neverLit, { size = 110 } = {}) {
  const all = [...rows.map((r) => ({ label: r.cluster, share: r.share, hits: r.hits })), ...neverLit.map((c) => ({ label: c, share: 0, hits: 0, never: true }))];
  const cols = 6, svg = svgEl('svg', { width: cols * (size + 6), height: Math.ceil(all.length / cols) * (size / 2 + 6), role: 'img', class: 'heatmap' });
  all.forEach((c, i) => {
    const x = (i % cols) * (size + 6), y = Math.floor(i / cols) * (size / 2 + 6);
    const fill = c.never ? '#fff' : `rgba(11,110,138,${0.15 + 0.85 * c.share})`;
    svg.append(svgEl('rect', { x, y, width: size, height: size / 2, fill, stroke: c.never ? '#a3580b' : '#d8dee4', 'stroke-dasharray': c.never ? '4 3' : '' }));
    svg.append(svgEl('text', { x: x + 6, y: y + 20 }, c.label.slice(0, 16)));
    svg.append(svgEl('text', { x: x + 6, y: y + 40 }, c.never ? 'never lit' : `${c.hits} hits`));
  });
  return svg;
}

/** Interactive co-occurrence graph: nodes sized by mentions, edges by count; drag a node, click to highlight. */
export function forceGraph(nodes, edges, { width = 900, height = 560, onSelect } = {}) {
  const svg = svgEl('svg', { width, height, role: 'img', class: 'graph' });
  const pts = nodes.map((n, i) => ({ ...n, x: width / 2 + Math.cos(i) * 200 * Math.random(), y: height / 2 + Math.sin(i) * 200 * Math.random(), vx: 0, vy: 0 }));
  const byName = new Map(pts.map((p) => [p.entity, p]));
  const links = edges.filter((e) => byName.has(e.a) && byName.has(e.b)).map((e) => ({ ...e, s: byName.get(e.a), t: byName.get(e.b) }));
  for (let it = 0; it < 300; it++) {
    for (const a of pts) for (const b of pts) {
      if (a === b) continue;
      const dx = a.x - b.x, dy = a.y - b.y, d2 = Math.max(25, dx * dx + dy * dy), f = 2000 / d2;
      a.vx += (dx / Math.sqrt(d2)) * f; a.vy += (dy / Math.sqrt(d2)) * f;
    }
    for (const l of links) {
      const dx = l.t.x - l.s.x, dy = l.t.y - l.s.y, d = Math.max(1, Math.hypot(dx, dy)), f = (d - 90) * 0.02;
      l.s.vx += (dx / d) * f; l.s.vy += (dy / d) * f; l.t.vx -= (dx / d) * f; l.t.vy -= (dy / d) * f;
    }
    for (const p of pts) {
      p.vx += (width / 2 - p.x) * 0.005; p.vy += (height / 2 - p.y) * 0.005;
      p.x = Math.min(width - 30, Math.max(30, p.x + p.vx * 0.5)); p.y = Math.min(height - 20, Math.max(20, p.y + p.vy * 0.5));
      p.vx *= 0.6; p.vy *= 0.6;
    }
  }
  const maxM = Math.max(1, ...pts.map((p) => p.mentionCount));
  const lineEls = links.map((l) => { const e = svgEl('line', { stroke: '#9fb3bf', 'stroke-width': Math.min(6, 1 + l.count) }); svg.append(e); return e; });
  const nodeEls = pts.map((p) => {
    const g = svgEl('g', { class: 'node', 'data-entity': p.entity, style: 'cursor:grab' });
    g.append(svgEl('circle', { r: 6 + 14 * (p.mentionCount / maxM), fill: '#0b6e8a', 'fill-opacity': 0.8 }));
    g.append(svgEl('text', { x: 10, y: -10 }, p.entity));
    svg.append(g);
    return g;
  });
  const draw = () => {
    links.forEach((l, i) => { const e = lineEls[i]; e.setAttribute('x1', l.s.x); e.setAttribute('y1', l.s.y); e.setAttribute('x2', l.t.x); e.setAttribute('y2', l.t.y); });
    pts.forEach((p, i) => nodeEls[i].setAttribute('transform', `translate(${p.x},${p.y})`));
  };
  draw();
  let drag = null;
  nodeEls.forEach((g, i) => {
    g.addEventListener('pointerdown', (ev) => { drag = pts[i]; g.setPointerCapture(ev.pointerId); });
    g.addEventListener('click', () => {
      const p = pts[i], near = new Set(links.filter((l) => l.s === p || l.t === p).flatMap((l) => [l.s.entity, l.t.entity]));
      nodeEls.forEach((n, j) => n.setAttribute('opacity', near.size === 0 || near.has(pts[j].entity) ? 1 : 0.25));
      onSelect?.(p, links.filter((l) => l.s === p || l.t === p));
    });
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect(); drag.x = ev.clientX - r.left; drag.y = ev.clientY - r.top; draw();
  });
  svg.addEventListener('pointerup', () => { drag = null; });
  return svg;
}
