// The panel's per-constraint-type strengths and the soft material, as flat panel values (so share links carry them):
// a scene lists in its `params` the kinds it has, with the values its bodies were built with (kindParams), and
// applyConstraintParams sets them on every constraint of that kind in every world (World.setConstraintStrength).
// Applying the values a scene was built with changes nothing (bit for bit), so they can be applied at every change.

/** Panel value prefix -> World.setConstraintStrength kind, its count, and the panel's label and compliance unit. */
export const KINDS = {
  dihedral: { kind: 'dihedral', count: (w) => w.dihedralConstraintCount(), label: 'bending (dihedral)',
    unit: '1/(N m)' },
  tetVolume: { kind: 'tet-volume', count: (w) => w.tetVolumeCount(), label: 'tet volume', unit: 'm⁶/J' },
  surfaceVolume: { kind: 'surface-volume', count: (w) => w.surfaceVolumeCount(), label: 'surface volume (balloon)',
    unit: 'm⁶/J' },
  triangleStretch: { kind: 'triangle-stretch', count: (w) => w.triangleStrainCount(), label: 'strain stretch',
    unit: 'm/N per m²' },
  triangleShear: { kind: 'triangle-shear', count: (w) => w.triangleStrainCount(), label: 'strain shear',
    unit: 'm/N per m²' },
  shapeMatching: { kind: 'shape-matching', count: (w) => w.shapeMatchingCount(), label: 'shape matching', unit: 's²' },
};

/** Panel values for kind `prefix` (a key of KINDS) built with `strength` ({compliance, stiffness}). */
export function kindParams(prefix, { compliance, stiffness }) {
  return { [`${prefix}Compliance`]: compliance, [`${prefix}Stiffness`]: stiffness };
}

/** Panel values of a Neo-Hookean material ({youngsModulus, poissonRatio, materialStiffness}). */
export function materialParams({ youngsModulus, poissonRatio, materialStiffness = 1 }) {
  return { youngsModulus, poissonRatio, materialStiffness };
}

/**
 * Sets every kind the params name on every world, and the material on each of `materials` ({world, body}: the
 * scene's Neo-Hookean bodies).
 */
export function applyConstraintParams(worlds, materials, params) {
  for (const [prefix, { kind, count }] of Object.entries(KINDS)) {
    const compliance = params[`${prefix}Compliance`];
    if (compliance === undefined) continue;
    for (const world of worlds) {
      const n = count(world);
      if (n > 0) world.setConstraintStrength(kind, 0, n, compliance, params[`${prefix}Stiffness`]);
    }
  }
  if (params.youngsModulus === undefined) return;
  for (const { world, body } of materials) {
    world.setSoftBodyMaterial(body, params.youngsModulus, params.poissonRatio, params.materialStiffness);
  }
}
