// Every JavaScript block of README.md runs in a test, so the README cannot rot. The comment line right above a
// block's fence says where it runs: `<!-- readme-test: RUNNER ID [after=ID] -->`, RUNNER `node` (this file) or
// `browser` (tests/js/browser/readme.test.js, headless Chromium: WebGL, pointer events, a cross-origin isolated page).
// `after=ID` runs block ID first, in the same scope, for a block that continues another (added after the quick
// start). A block runs as the body of an async function: its imports become lookups in a table of the modules the
// test provides (by package name, as a user writes them), `export default` becomes part of the result, and every
// top-level binding is returned for the block's check. This file also fails when a JS block has no runner, or when a
// block and its check do not match up, so no block is skipped in silence.
import { existsSync, readFileSync } from 'node:fs';
import * as THREE from 'three';
import * as vite from 'vite';
import { describe, expect, it } from 'vitest';
import * as pbdWasm from '../../../web/lib/index.js';
import * as pbdThree from '../../../web/lib/three.js';
import * as pbdWorker from '../../../web/lib/worker.js';
import * as pbdRapier from '../../../web/lib/rapier.js';
import RAPIER from '@dimforge/rapier3d-compat';
import { isolationHeaders } from '../../../vite.config.js';
import { JS_LANGUAGES, RUNNERS, readmeBlocks, runBlock } from '../shared/readme-blocks.js';

const root = new URL('../../../', import.meta.url);
const README = readFileSync(new URL('README.md', root), 'utf8');
const packageName = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).name;


const blocks = readmeBlocks(README);
const jsBlocks = blocks.filter((b) => JS_LANGUAGES.includes(b.lang));
const nodeBlocks = jsBlocks.filter((b) => b.runner === 'node');
const modules = { [packageName]: pbdWasm, [`${packageName}/three`]: pbdThree, [`${packageName}/worker`]: pbdWorker,
  [`${packageName}/rapier`]: pbdRapier, '@dimforge/rapier3d-compat': { default: RAPIER }, three: THREE, vite };

/** What each node block must have done, given its top-level bindings and what it logged. */
const checks = {
  'without-three': async (scope, logged) => {
    expect(scope.pbd.variant).toBe('threaded');
    const line = logged.find((args) => args[0] === 'corner at');
    expect(line, 'the block logs the corner').toBeDefined();
    // The attachment walked the free corner from z = 1 to 1 - 119/240 at x = 0.5, y = 1.5, and held it there.
    const [x, y, z] = line[1];
    expect(x).toBeCloseTo(0.5, 2);
    expect(y).toBeCloseTo(1.5, 2);
    expect(z).toBeCloseTo(1 - 119 / 240, 2);
    expect(scope.world.isDeleted()).toBe(true);
  },
  'rapier': async (scope, logged) => {
    const line = logged.find((args) => args[0] === 'a 10 kg box rests in a 1 kg hammock at y =');
    expect(line, 'the block logs the box').toBeDefined();
    expect(scope.box.mass()).toBeCloseTo(10, 1);
    // In the cloth (corners at 1 m, the box's half side 0.15 m), neither through it nor thrown off.
    expect(line[1]).toBeGreaterThan(0.6);
    expect(line[1]).toBeLessThan(1.0);
    expect(scope.world.isDeleted()).toBe(true);
  },
  'worker': async (scope, logged) => {
    expect(scope.remote.variant).toBe('threaded');
    const line = logged.find((args) => args[0] === 'free corner at y =');
    expect(line, 'the block logs the free corner').toBeDefined();
    expect(line[1]).toBeLessThan(1.0);                          // half a second after release it has swung down
    await expect(scope.remote.world.step(1 / 60)).rejects.toThrow(/terminated/);
  },
  'vite-config': async (scope) => {
    const config = scope.default;
    expect(config.server.headers).toEqual(isolationHeaders);   // the headers the repository's own tests serve with
    expect(config.preview.headers).toEqual(isolationHeaders);
    expect(config.optimizeDeps.exclude).toEqual([packageName]);
  },
};

describe('README.md', () => {
  it('shows docs/images/drape.png, the world-in-worker example as its test sees it (npm run screenshot)', () => {
    const picture = /!\[[^\]]+\]\((docs\/images\/[\w-]+\.png)\)/.exec(README)?.[1];
    expect(picture, 'a picture in the README').toBe('docs/images/drape.png');
    const png = readFileSync(new URL(picture, root));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 480]);   // IHDR: the examples test's viewport
    expect(png.length, 'a drawn scene, not a blank page, which compresses to a few KB').toBeGreaterThan(10_000);
  });


  it('names the language of every code block, and a runner (node or browser) for every JS block', () => {
    for (const b of blocks) expect(b.lang, `README.md line ${b.line}: a code block without a language`).not.toBe('');
    const ids = new Set();
    for (const b of jsBlocks) {
      const where = `README.md line ${b.line}`;
      expect(b.lang, `${where}: JS blocks are written as \`\`\`js`).toBe('js');
      expect(RUNNERS, `${where}: no <!-- readme-test: node|browser ID --> line above the block`).toContain(b.runner);
      expect(ids.has(b.id), `${where}: the id "${b.id}" is used twice`).toBe(false);
      if (b.after) {
        const previous = jsBlocks.find((p) => p.id === b.after);
        expect(previous && ids.has(b.after), `${where}: after=${b.after} names no earlier block`).toBe(true);
        expect(previous.runner, `${where}: after=${b.after} runs elsewhere`).toBe(b.runner);
      }
      ids.add(b.id);
    }
    expect(nodeBlocks.length).toBeGreaterThan(0);
    expect(existsSync(new URL('tests/js/browser/readme.test.js', root)), 'the browser blocks\' runner').toBe(true);
  });

  it('has a check in this file for every node block, and no check without a block', () => {
    expect(Object.keys(checks).sort()).toEqual(nodeBlocks.map((b) => b.id).sort());
  });

  for (const block of nodeBlocks) {
    it(`runs the "${block.id}" block (line ${block.line})`, async () => {
      const logged = [];
      const console = { ...globalThis.console, log: (...args) => { logged.push(args); } };
      const scope = await runBlock(block, blocks, modules, console);
      try {
        await checks[block.id](scope, logged);
      } finally {
        if (scope.world && !scope.world.isDeleted()) scope.world.delete();
        scope.pbd?.terminate();   // the threaded build's workers would keep the process alive
      }
    });
  }
});
