// Vitest runs two test files at a time (vitest.config.js). In a fresh clone it has no timings cached and runs the
// files in path order, which left the soak (the longest file that does not wait on Chromium) to the end, alone on one
// core for its last minute. This sequencer starts the longest files first, the soak beside the gallery's pages.
import { BaseSequencer } from 'vitest/node';

/** Path endings, longest file first (wall seconds in a fresh clone's `npm test`, 2026-12-05). */
const SLOW_FIRST = [
  'tests/js/node/soak.test.js', // 45 alone
  'tests/js/e2e/gallery.test.js', // 156
  'tests/js/e2e/examples.test.js', // 88
  'tests/js/e2e/demo-page.test.js', // 83
  'tests/js/node/rapier-coupling.test.js', // 18
  'tests/js/node/memory.test.js', // 14
  'tests/js/node/physics.test.js', // 12
];

function rank(file) {
  const k = SLOW_FIRST.findIndex((end) => file.moduleId.endsWith(end));
  return k < 0 ? SLOW_FIRST.length : k;
}

export class SlowFirstSequencer extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    return sorted.map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
