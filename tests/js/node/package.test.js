// The npm package as a user gets it: `npm pack`, install the tarball into an empty project, import it by name.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'pbd-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false' } });

it('says what it is and where it lives: licence, repository, homepage and bug tracker', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  expect(pkg.license).toBe('MIT');
  expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  expect(pkg.homepage).toMatch(/^https:\/\//);
  expect(pkg.bugs.url).toMatch(/^https:\/\/.+\/issues$/);
  expect(pkg.peerDependencies.three).toBeDefined();
  expect(pkg.peerDependenciesMeta.three.optional).toBe(true);
});

it('packs both builds and the types, installs into an empty project and runs from there', () => {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', scratch], root))[0];
  const files = packed.files.map((f) => f.path);
  for (const f of ['web/lib/index.js', 'web/lib/index.d.ts', 'web/lib/three.js', 'web/lib/three.d.ts',
    'web/lib/wasm/threaded/pbd_wasm.mjs', 'web/lib/wasm/threaded/pbd_wasm.wasm', 'web/lib/wasm/threaded/pbd_wasm.worker.js',
    'web/lib/wasm/threaded/package.json', 'web/lib/wasm/single/pbd_wasm.mjs', 'web/lib/wasm/single/pbd_wasm.wasm']) {
    expect(files).toContain(f);
  }
  // Only the library, its builds and the user-facing documents; no test, bench, source map or C++ source.
  const strays = files.filter((f) => !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|web\/lib\/.+)$/.test(f) ||
    /\.(test|spec)\.|\.map$|\.(cpp|h)$/.test(f));
  expect(strays).toEqual([]);
  expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md']));
  // Two wasm builds of about 1.1 MB each: 0.9 MB packed, 2.6 MB unpacked (December 2026). A stray file or an
  // unoptimized build would show here.
  expect(packed.size).toBeLessThan(1.5e6);
  expect(packed.unpackedSize).toBeLessThan(4e6);

  const app = join(scratch, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', '--no-save', '--offline', join(scratch, packed.filename)], app);
  expect(readdirSync(join(app, 'node_modules'))).toContain('pbd-wasm');
  writeFileSync(join(app, 'main.js'), `
    import { createPbd } from 'pbd-wasm';
    for (const variant of ['threaded', 'single']) {
      const pbd = await createPbd({ variant, threads: 2 });
      const world = new pbd.World();
      world.addCloth({ columns: 8, rows: 8, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 7] });
      for (let f = 0; f < 10; f++) world.step(1 / 60);
      console.log(variant, pbd.threads, world.positions()[3 * 63 + 1].toFixed(3));
      world.delete();
      pbd.terminate();
    }`);
  const out = execFileSync('node', ['main.js'], { cwd: app, encoding: 'utf8', timeout: 30_000 }).trim().split('\n');
  expect(out[0]).toMatch(/^threaded 2 0\.\d+$/);
  expect(out[1]).toMatch(/^single 1 0\.\d+$/);
});
