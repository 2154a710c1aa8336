// The bunny in a real browser (headless Chromium, threaded build): tetrahedralized through the JS API with progress
// events, then simulated; and cancelled through an AbortSignal.
import { afterAll, beforeAll, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { cancelTetrahedralize, dropSoftBunny, tetrahedralizeBunny } from '../shared/bunny-scenarios.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

it('tetrahedralizes the Stanford bunny with progress events and simulates it', () => {
  const mesh = tetrahedralizeBunny(pbd, 12);
  dropSoftBunny(pbd, mesh);
});

it('cancels a tetrahedralization through an AbortSignal', () => cancelTetrahedralize(pbd));
