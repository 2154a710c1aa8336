// Text table, CSV and SVG output of the solver benchmark (pure: strings in, strings out; the caller writes files).

/** A fixed-width text table: `columns` = [{ title, width, align: 'left' | 'right' }], rows of cell strings. */
export function table(columns, rows) {
  const cell = (text, c) => (c.align === 'left' ? String(text).padEnd(c.width) : String(text).padStart(c.width));
  const lines = [columns.map((c) => cell(c.title, c)).join('  ')];
  for (const row of rows) lines.push(row.map((text, k) => cell(text, columns[k])).join('  '));
  return lines.join('\n');
}

/**
 * CSV of residual curves: one row per iteration, `iteration` then a column per curve (`name`), empty past a curve's
 * end. curves = [{ name, values }].
 */
export function curvesCsv(curves) {
  const length = Math.max(0, ...curves.map((c) => c.values.length));
  const lines = [['iteration', ...curves.map((c) => c.name)].join(',')];
  for (let i = 0; i < length; i++) {
    lines.push([i + 1, ...curves.map((c) => (i < c.values.length ? c.values[i].toPrecision(6) : ''))].join(','));
  }
  return lines.join('\n') + '\n';
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf'];

/**
 * An SVG line plot of curves (x = iteration 1..n, y = log10 of the value; non-positive values are left out), with a
 * dashed horizontal line at `level` if given, axes, decade ticks and a legend.
 */
export function curvesSvg({ title, curves, level = null, width = 720, height = 440 }) {
  const margin = { left: 70, right: 190, top: 36, bottom: 46 };
  const logs = curves.flatMap((c) => c.values.filter((v) => v > 0).map(Math.log10));
  if (level > 0) logs.push(Math.log10(level));
  const yLo = logs.length ? Math.floor(Math.min(...logs)) : -1;
  const yHi = logs.length ? Math.max(yLo + 1, Math.ceil(Math.max(...logs))) : 0;
  const n = Math.max(2, ...curves.map((c) => c.values.length));
  const plotW = width - margin.left - margin.right, plotH = height - margin.top - margin.bottom;
  const X = (i) => margin.left + (plotW * (i - 1)) / (n - 1);
  const Y = (log) => margin.top + (plotH * (yHi - log)) / (yHi - yLo);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${margin.left}" y="20" font-size="14">${escapeXml(title)}</text>`,
    `<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444"/>`];
  for (let d = yLo; d <= yHi; d++) {
    out.push(`<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${Y(d).toFixed(1)}" y2="${Y(d).toFixed(1)}" stroke="#ddd"/>`,
      `<text x="${margin.left - 6}" y="${(Y(d) + 4).toFixed(1)}" text-anchor="end">1e${d}</text>`);
  }
  for (const i of [1, Math.round(n / 4), Math.round(n / 2), Math.round((3 * n) / 4), n]) {
    out.push(`<text x="${X(i).toFixed(1)}" y="${margin.top + plotH + 16}" text-anchor="middle">${i}</text>`);
  }
  out.push(`<text x="${margin.left + plotW / 2}" y="${height - 8}" text-anchor="middle">iteration</text>`,
    `<text x="16" y="${margin.top + plotH / 2}" transform="rotate(-90 16 ${margin.top + plotH / 2})" text-anchor="middle">residual (log scale)</text>`);
  if (level > 0) {
    const y = Y(Math.log10(level)).toFixed(1);
    out.push(`<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y}" y2="${y}" stroke="#000" stroke-dasharray="5,4"/>`);
  }
  curves.forEach((c, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const points = c.values.map((v, i) => (v > 0 ? `${X(i + 1).toFixed(1)},${Y(Math.log10(v)).toFixed(1)}` : null)).filter(Boolean);
    if (points.length) out.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${points.join(' ')}"/>`);
    const ly = margin.top + 14 + 18 * k;
    out.push(`<line x1="${margin.left + plotW + 12}" x2="${margin.left + plotW + 36}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${margin.left + plotW + 42}" y="${ly}">${escapeXml(c.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function escapeXml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
