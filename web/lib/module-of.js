// The module (what createPbd resolved to) a World was made by, so that the three.js helpers need only the world:
// createPbd marks its World class (index.js), and pbdOf reads the mark. A registered symbol, so that two copies of
// this file in one bundle still agree.
const MODULE = Symbol.for('pbd-wasm.module');

/** Marks every World of the class `World` as made by module `pbd`. */
export function markWorlds(World, pbd) {
  Object.defineProperty(World.prototype, MODULE, { value: pbd, configurable: true });
}

/** The module `world` was made by, or undefined for anything else. */
export const pbdOf = (world) => world?.[MODULE];
