// The API reference: TypeDoc's site (`npm run docs`, served by `npm start` under /docs/) and docs/api.md, both
// generated from the TypeScript declarations. TypeDoc validates them: an exported member without a doc comment, a
// broken {@link} or a type used but not exported is a warning, and typedoc.json makes warnings errors.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generateApiDocs } from '../../../docs/generate-api.mjs';

const root = new URL('../../../', import.meta.url).pathname;

it('docs/api.md is up to date with web/lib/*.d.ts and documents every export', () => {
  const generated = generateApiDocs();
  expect(readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8')).toBe(generated);
  for (const name of ['World', 'createPbd', 'Embedding', 'PbdCloth', 'PbdSoftBody', 'pickParticle', 'softBodyFromMesh',
    'AdvanceOptions']) {
    expect(generated).toContain(`### ${name}\n`);
  }
});

it('TypeDoc builds the reference with no undocumented member, broken link or unexported type', () => {
  const out = mkdtempSync(join(tmpdir(), 'pbd-typedoc-'));
  try {
    let log = '';
    let failed = false;
    try {
      log = execFileSync(join(root, 'node_modules/.bin/typedoc'), ['--out', out], { cwd: root, encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    } catch (error) {
      failed = true;
      log = `${error.stdout}${error.stderr}`;
    }
    const warnings = log.split('\n').filter((l) => /\[(warning|error)\]/.test(l)).map((l) => l.replace(/\x1b\[\d+m/g, ''));
    expect(warnings.slice(0, 20), `${warnings.length} TypeDoc warnings and errors`).toEqual([]);
    expect(failed).toBe(false);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    const world = readFileSync(join(out, 'classes/index.World.html'), 'utf8');
    expect(world).toContain('advance');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
