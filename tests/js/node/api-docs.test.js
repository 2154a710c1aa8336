// docs/api.md is generated from the TypeScript declarations; it must match them (run `npm run docs` after editing).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generateApiDocs } from '../../../docs/generate-api.mjs';

it('docs/api.md is up to date with web/lib/*.d.ts and documents every export', () => {
  const generated = generateApiDocs();
  expect(readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8')).toBe(generated);
  for (const name of ['World', 'createPbd', 'Embedding', 'PbdCloth', 'PbdSoftBody', 'pickParticle', 'softBodyFromMesh']) {
    expect(generated).toContain(`### ${name}\n`);
  }
});
