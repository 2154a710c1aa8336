// Writes the Stanford bunny of the npm package `bunny` (public domain, 1839 vertices, 3674 triangles, closed) as an
// OBJ file, so the native and wasm GoogleTest suites test the tetrahedralizer and the OBJ reader on real data that
// nobody here wrote. Usage: node tests/data/write-bunny-obj.mjs <out.obj>
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const out = process.argv[2];
if (!out) throw new Error('usage: write-bunny-obj.mjs <out.obj>');
const bunny = createRequire(import.meta.url)('bunny');
const lines = ['# Stanford bunny, from the npm package bunny@' + createRequire(import.meta.url)('bunny/package.json').version];
for (const [x, y, z] of bunny.positions) lines.push(`v ${x} ${y} ${z}`);
for (const [a, b, c] of bunny.cells) lines.push(`f ${a + 1} ${b + 1} ${c + 1}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, lines.join('\n') + '\n');
