// The demo is built like any user's app, on the public API only: every import in web/demo/ (and web/index.html, its
// page) names a package entry ('pbd-wasm', 'pbd-wasm/three'), three, lil-gui, bunny, or a file of the demo itself.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const web = new URL('../../../web/', import.meta.url).pathname;
const demo = join(web, 'demo');
// bunny: the Stanford bunny's mesh data, a third-party package like lil-gui (the soft-bunny scenes).
// @dimforge/rapier3d-compat: Rapier, an optional peer of pbd-wasm/rapier (the coupled scenes).
const PACKAGES = /^(pbd-wasm(\/three|\/rapier|\/worker)?|@dimforge\/rapier3d-compat|three|three\/(addons|examples)\/.+|lil-gui|bunny)$/;

/** A string literal's text, or null for anything else (a variable, a template with ${}): that cannot be checked. */
function literal(arg) {
  const m = /^(['"`])([^'"`]*)\1$/.exec(arg.trim());
  return m && !m[2].includes('${') ? m[2] : null;
}

/** Every module or worker a JS source loads, as written (null where it is not a string literal). */
function jsImports(code) {
  const found = [];
  // import x from '...', import { a, b as c } from '...', import '...', export * from '...', export { a } from '...'
  for (const m of code.matchAll(/(?:^|[\s;}])(?:import|export)\s+(?:[\w$*{}\s,]+?\s+from\s*)?(['"])([^'"]*)\1/g)) {
    found.push(m[2]);
  }
  for (const m of code.matchAll(/\bimport\s*\(([^)]*?)(?:,[^)]*)?\)/g)) found.push(literal(m[1]));
  for (const m of code.matchAll(/new\s+URL\s*\(([^,()]*),\s*import\.meta\.url\s*\)/g)) found.push(literal(m[1]));
  for (const m of code.matchAll(/new\s+(?:Shared)?Worker\s*\(\s*(['"`][^)]*?)\s*[,)]/g)) found.push(literal(m[1]));
  for (const m of code.matchAll(/\bimportScripts\s*\(([^)]*)\)/g)) found.push(...m[1].split(',').map(literal));
  return found;
}

/** Every script an HTML page loads: <script src> and the imports of inline scripts. */
function htmlImports(html) {
  const found = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(m[1]);
    if (src) found.push(src[1] ?? src[2] ?? src[3]);
    found.push(...jsImports(m[2]));
  }
  return found;
}

/** Allowed: a listed package, or a relative path that stays inside web/demo/. */
function allowed(file, spec) {
  if (spec === null) return false;
  if (PACKAGES.test(spec)) return true;
  if (!/^\.\.?\//.test(spec)) return false;   // absolute paths ('/lib/...'), URLs, other packages
  return resolve(dirname(file), spec.replace(/[?#].*$/, '')).startsWith(demo + sep);
}

const sources = (dir) => readdirSync(dir, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && /\.(m?js|html)$/.test(e.name)).map((e) => join(e.parentPath, e.name));

/** [file relative to web/, import] for every import `allowed` rejects. */
function violations(files) {
  const bad = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const spec of file.endsWith('.html') ? htmlImports(text) : jsImports(text)) {
      if (!allowed(file, spec)) bad.push([relative(web, file), spec]);
    }
  }
  return bad;
}

describe('the demo imports only the public API', () => {
  const files = [...sources(demo), join(web, 'index.html')];

  it('reads the demo and finds its imports (the worker, the dynamic import and the page script included)', () => {
    expect(files.length).toBeGreaterThan(20);
    const all = files.flatMap((f) => (f.endsWith('.html') ? htmlImports : jsImports)(readFileSync(f, 'utf8')));
    expect(all.length).toBeGreaterThan(40);
    expect(all).toEqual(expect.arrayContaining(['./sim-worker.js', './gltf-drop.js', './demo/main.js',
      'pbd-wasm/three', 'pbd-wasm/worker', 'three', 'lil-gui']));
  });

  // The page and its Worker talk through pbd-wasm/worker (createWorkerWorld, serveWorld, WorkerWorld.run), as a
  // user's app would: no message protocol of the demo's own.
  it('has no message protocol of its own: the Worker runner carries every call', () => {
    const byHand = /\bpostMessage\s*\(|\bonmessage\b|addEventListener\s*\(\s*['"]message['"]/;
    const found = files.filter((f) => byHand.test(readFileSync(f, 'utf8'))).map((f) => relative(web, f));
    expect(found).toEqual([]);
    expect(readFileSync(join(demo, 'sim-worker.js'), 'utf8')).toMatch(/\bserveWorld\(\s*\{\s*functions\b/);
    expect(readFileSync(join(demo, 'main.js'), 'utf8')).toMatch(/\bcreateWorkerWorld\(/);
  });

  it('names no file of web/lib/ or anything else outside the list', () => {
    expect(violations(files)).toEqual([]);
  });

  it('would catch an import of the library by path, however it is written', () => {
    const js = `import { World } from '../lib/index.js';
      import * as T from "../../lib/three.js"; import '/lib/three/topology.js';
      export { nearestParticle } from '../lib/three/nearest-particle.js';
      const m = await import('../lib/three.js'), n = await import(name), o = await import(\`./\${name}.js\`);
      new Worker(new URL('../lib/wasm/threaded/pbd_wasm.worker.js', import.meta.url), { type: 'module' });
      new Worker('/lib/index.js'); importScripts('../lib/x.js');
      import { a } from 'pbd-wasm/web/lib/three/topology.js'; import b from 'three-stdlib';`;
    const rejected = (code, file = join(demo, 'x.js')) => jsImports(code).filter((s) => !allowed(file, s));
    expect(rejected(js)).toEqual(['../lib/index.js', '../../lib/three.js', '/lib/three/topology.js',
      '../lib/three/nearest-particle.js', 'pbd-wasm/web/lib/three/topology.js', 'three-stdlib', '../lib/three.js', null,
      null, '../lib/wasm/threaded/pbd_wasm.worker.js', '/lib/index.js', '../lib/x.js']);
    const fine = `import { a } from './scenes/drawables.js'; import('./main.js'); import * as THREE from 'three';
      import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
      new URL('./sim-worker.js', import.meta.url);`;
    expect(jsImports(fine)).toHaveLength(5);
    expect(rejected(fine)).toEqual([]);
    const html = `<script type="module" src="../lib/index.js"></script>
      <script type="module">import '/lib/x.js';</script>`;
    expect(htmlImports(html).filter((s) => !allowed(join(demo, 'x.html'), s)))
      .toEqual(['../lib/index.js', '/lib/x.js']);
  });
});
