import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { isolationHeaders } from './vite.config.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/js/shared/chromium.js';
import { SlowFirstSequencer } from './tests/js/shared/slow-first-sequencer.js';

export default defineConfig({
  test: {
    // Two test files at a time, one per core: the soak (one thread) runs beside the e2e pages (Chromium), 221 -> 143 s.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'node',
          include: ['tests/js/node/**/*.test.js', 'tests/js/e2e/**/*.test.js'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
      {
        server: { headers: isolationHeaders },
        test: {
          name: 'chromium',
          include: ['tests/js/browser/**/*.test.js'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            instances: [{ browser: 'chromium' }],
            provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
          },
        },
      },
    ],
  },
});
