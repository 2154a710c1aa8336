// Smoke test of `npm run bench:solvers`' pure helpers (bench/solvers/, and bench/scenes.mjs' tet beam): iterations to
// a residual on made-up curves, stretch and energy against hand-computed values, the tet beam's mesh (right-handed,
// fills the box), and the CSV and SVG writers. Not a benchmark: nothing is timed and no wasm is loaded.
import { describe, expect, it } from 'vitest';
import { beamMesh, edgeLengths, signedTetVolume } from '../../../bench/scenes.mjs';
import { iterationsToReach, maxStretch, median, splitResiduals, springPendulumEnergy, stretchRms } from '../../../bench/solvers/metrics.mjs';
import { curvesCsv, curvesSvg, table } from '../../../bench/solvers/report.mjs';

describe('bench:solvers helpers', () => {
  it('counts iterations to a residual level on a made-up curve', () => {
    const curve = Array.from({ length: 50 }, (_, i) => 0.9 ** (i + 1));  // 0.9^k after k iterations
    const level = 0.9 ** 20;
    expect(iterationsToReach(curve, level)).toBe(20);
    expect(iterationsToReach(curve, level * 1.0001)).toBe(20);
    expect(iterationsToReach(curve, 0.9 ** 20 * 0.9999)).toBe(21);
    expect(iterationsToReach(curve, 1e-9)).toBeNull();
    expect(iterationsToReach([0.5, 2, 0.1], 0.5)).toBe(1);  // the first crossing counts
  });

  it('splits residual pairs and takes medians', () => {
    expect(splitResiduals([3, 1, 2, 0.5, 1, 0.25])).toEqual({ max: [3, 2, 1], rms: [1, 0.5, 0.25] });
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(3);
  });

  it('measures edge stretch against rest lengths', () => {
    const xyz = [0, 0, 0, 3, 4, 0, 3, 4, 2];  // edge 0-1 is 5 m, edge 1-2 is 2 m
    const edges = [0, 1, 1, 2];
    expect(Array.from(edgeLengths(xyz, edges))).toEqual([5, 2]);
    expect(maxStretch(xyz, edges, [4, 2])).toBeCloseTo(0.25, 12);
    expect(maxStretch(xyz, edges, [10, 4])).toBeCloseTo(-0.5, 12);
    // stretch residual: only the stretched edge counts, sqrt((1² + 0²) / 2); compression counts nothing
    expect(stretchRms(xyz, edges, [4, 3])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(stretchRms(xyz, edges, [10, 4])).toBe(0);
  });

  it('computes a spring pendulum energy from its three terms', () => {
    // 2 kg at (0, -1.5, 0), speed 3 m/s, spring 100 N/m of rest 1 m: ½·2·9 + 2·9.81·(-1.5) + ½·100·0.25
    expect(springPendulumEnergy([0, -1.5, 0], [0, 3, 0], 2, 100, 1, 9.81)).toBeCloseTo(9 - 29.43 + 12.5, 10);
  });

  it('builds a right-handed tet beam that fills its box', () => {
    const [nx, ny, nz, cell] = [3, 2, 2, 0.5];
    const { positions, tets } = beamMesh(nx, ny, nz, cell);
    expect(positions.length / 3).toBe((nx + 1) * (ny + 1) * (nz + 1));
    expect(tets.length / 4).toBe(6 * nx * ny * nz);
    let total = 0;
    for (let t = 0; t < tets.length; t += 4) {
      const v = signedTetVolume(positions, ...tets.subarray(t, t + 4));
      expect(v).toBeGreaterThan(0);
      total += v;
    }
    expect(total).toBeCloseTo(nx * ny * nz * cell ** 3, 9);
  });

  it('writes CSV rows per iteration and an SVG with one line per curve', () => {
    const curves = [{ name: 'a', values: [1, 0.1, 0.01] }, { name: 'b', values: [2, 0.5] }];
    expect(curvesCsv(curves)).toBe('iteration,a,b\n1,1.00000,2.00000\n2,0.100000,0.500000\n3,0.0100000,\n');
    const svg = curvesSvg({ title: 'x < y', curves, level: 0.05 });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('x &lt; y');
    expect(svg).toContain('stroke-dasharray');  // the level line
    expect(svg).not.toMatch(/NaN|Infinity/);
    // decades from 1e-2 to 1e0 (0.5 and 2 round out to [1e-2, 1e1])
    expect(svg).toContain('>1e-2<');
    expect(svg).toContain('>1e1<');
    expect(table([{ title: 'n', width: 3 }, { title: 's', width: 4, align: 'left' }], [[1, 'ab']])).toBe('  n  s   \n  1  ab  ');
  });
});
