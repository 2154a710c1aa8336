// The physics report's cases, in table order (issue 51 item 5). Each is a function (pbd) => row, where row is
// { name, expected, measured, tolerance, unit, pass, note } and pass is |measured − expected| <= tolerance; the
// expected value comes from an analytic formula (see each case's comment), the measured one from the simulation,
// through the package's public API only. Used by tests/js/physics-report.mjs (prints the table) and
// tests/js/node/physics.test.js (one test per case). Deterministic: fixed scenes, no random numbers.
import {
  dampedDrapeOnBox, dampedDrapeOnSphere, dampedFoldedDrapeSymmetric, momentumCases, restUnderRigidDamping,
  restingDrape,
} from './conservation.js';
import {
  freeFallBdf2, freeFallEuler, inclineSlides, inclineSticks, pendulumEnergyBdf2, pendulumEnergyEuler,
  pendulumPeriodBdf2, pendulumPeriodBdf2At40, pendulumPeriodBdf2At40x4, pendulumPeriodEuler, pendulumPeriodEulerAt40,
  pendulumPeriodEulerAt40x4, restitution, springDamped, springUndamped1, springUndamped10,
} from './particles.js';
import {
  balloonVolume, cantileverCoarse, cantileverFine, cantileverMedium, neoHookeanBar, softCubeVolume,
} from './solids.js';

/** @type {Array<(pbd: import('../../../../web/lib/index').Pbd) => {name: string, expected: number,
 *   measured: number, tolerance: number, unit: string, pass: boolean, note: string}>} */
export const physicsCases = [
  freeFallEuler, freeFallBdf2,
  springUndamped1, springUndamped10, springDamped,
  pendulumPeriodEuler, pendulumPeriodBdf2, pendulumPeriodEulerAt40, pendulumPeriodBdf2At40, pendulumPeriodEulerAt40x4,
  pendulumPeriodBdf2At40x4,
  pendulumEnergyEuler, pendulumEnergyBdf2,
  restitution,
  inclineSticks, inclineSlides,
  neoHookeanBar,
  cantileverCoarse, cantileverMedium, cantileverFine,
  balloonVolume, softCubeVolume,
  ...momentumCases,
  restingDrape,
  restUnderRigidDamping,
  dampedDrapeOnSphere, dampedDrapeOnBox, dampedFoldedDrapeSymmetric,
];
