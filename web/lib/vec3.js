// Vectors in any shape (Vec3Like and QuatLike in index.d.ts): [x, y, z] or a typed array, {x, y, z} (a
// THREE.Vector3 is one), and quaternions the same with w (a THREE.Quaternion). The bindings take positional numbers
// in methods and arrays in options; this is the one place that decides what else counts as a vector.

const AXES = { 3: ['x', 'y', 'z'], 4: ['x', 'y', 'z', 'w'] };

/** The type each width goes by in index.d.ts, and how its forms are listed in messages. */
export const VECTOR_TYPES = {
  Vec3Like: { width: 3, forms: '[x, y, z], {x, y, z} or a THREE.Vector3' },
  QuatLike: { width: 4, forms: '[x, y, z, w], {x, y, z, w} or a THREE.Quaternion' },
};

export const isArrayLike = (value) => Array.isArray(value) || ArrayBuffer.isView(value);

/** `value`'s `width` components as a new array, or null when it is not a vector of that width. */
export function vectorComponents(value, width) {
  if (isArrayLike(value)) return value.length === width ? Array.from(value) : null;
  if (value === null || typeof value !== 'object') return null;
  const components = AXES[width].map((axis) => value[axis]);
  return components.every((c) => typeof c === 'number') ? components : null;
}
