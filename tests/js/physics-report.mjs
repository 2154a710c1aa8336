#!/usr/bin/env node
// The physics report (issue 51 item 5): runs every analytic check of tests/js/shared/physics/cases.js against the
// package's public API and prints one table, case | expected | measured | tolerance | unit | pass, the notes (scene,
// settings, formula details) below it, and "N passed, N failed". It is a report: it exits 0 whatever the results
// (tests/js/node/physics.test.js enforces them).
//
//   node tests/js/physics-report.mjs [--variant threaded|single] [--threads N]
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createPbd } from '../../web/lib/index.js';
import { physicsCases } from './shared/physics/cases.js';

const { values: args } = parseArgs({
  options: { variant: { type: 'string', default: 'threaded' }, threads: { type: 'string', default: '2' } },
});
const options = { variant: args.variant, ...(args.variant === 'threaded' ? { threads: Number(args.threads) } : {}) };
const pbd = await createPbd(options);

const wasmFile = new URL(`../../web/lib/wasm/${pbd.variant}/pbd_wasm.wasm`, import.meta.url);
const built = statSync(wasmFile).mtime.toISOString();
console.log('pbd-wasm physics report');
console.log(`run: ${new Date().toISOString()}, node ${process.version}, ${process.argv.slice(1).map((a) => a.replace(
  /^.*\/tests\/js\//, 'tests/js/')).join(' ')}`);
console.log(`build: ${pbd.variant} (${pbd.threads} thread${pbd.threads === 1 ? '' : 's'}), ` +
  `web/lib/wasm/${pbd.variant}/pbd_wasm.wasm built ${built}`);
console.log('');

const rows = [];
const started = performance.now();
for (const run of physicsCases) {
  const t = performance.now();
  let r;
  try {
    r = run(pbd);
  } catch (error) {
    r = { name: run.name, expected: NaN, measured: NaN, tolerance: NaN, unit: '', pass: false,
      note: `threw: ${error.message}` };
  }
  rows.push({ ...r, seconds: (performance.now() - t) / 1000 });
}
const seconds = (performance.now() - started) / 1000;

/** 6 significant digits, exponent form for very small or large magnitudes. */
function num(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a < 1e-3 || a >= 1e6 ? x.toExponential(3) : Number(x.toPrecision(6)).toString();
}

const header = ['#', 'case', 'expected', 'measured', 'tolerance', 'unit', 'pass'];
const table = rows.map((r, k) => [String(k + 1), r.name, num(r.expected), num(r.measured), num(r.tolerance), r.unit,
  r.pass ? 'pass' : 'FAIL']);
const widths = header.map((h, c) => Math.max(h.length, ...table.map((cells) => cells[c].length)));
const numeric = new Set([0, 2, 3, 4]);
const line = (cells) => cells.map((s, c) => (numeric.has(c) ? s.padStart(widths[c]) : s.padEnd(widths[c]))).join('  ')
  .trimEnd();
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const cells of table) console.log(line(cells));
console.log('');
console.log('notes:');
rows.forEach((r, k) => console.log(`${String(k + 1).padStart(widths[0])}  ${r.note} (${r.seconds.toFixed(2)} s)`));
console.log('');
const passed = rows.filter((r) => r.pass).length;
console.log(`${passed} passed, ${rows.length - passed} failed (${seconds.toFixed(1)} s)`);
pbd.terminate();
