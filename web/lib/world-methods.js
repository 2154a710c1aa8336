// World methods that take more shapes than their Embind binding: a vector as x, y, z numbers or as one Vec3Like,
// optional trailing arguments left out (Embind wants every declared argument), and options checked for unknown keys.
// Each method of WORLD_METHODS (api-shapes.js) is replaced on the class's prototype, once, when the module loads.
import { POSITIONAL_DEFAULTS, WORLD_METHODS, parseSignature } from './api-shapes.js';
import { InvalidArgumentError } from './errors.js';
import { checkOptions, optionMembers } from './options.js';
import { VECTOR_TYPES, vectorComponents } from './vec3.js';

/** Widens, in place, the methods of the Embind class World (before anything else wraps them: reads their arity). */
export function widenWorld(World) {
  const proto = World.prototype;
  for (const [name, signature] of Object.entries(WORLD_METHODS)) {
    if (typeof proto[name] !== 'function') continue;   // not in this build: api-shapes.test.js says so
    proto[name] = widened(name, proto[name], parseSignature(signature));
  }
}

function widened(fn, binding, params) {
  const arity = binding.argCount;   // Embind's count of declared arguments
  const optional = params.filter((p) => p.optional).length;
  return function widenedMethod(...args) {
    const out = [];
    let i = 0;
    for (const p of params) {
      if (i >= args.length) break;
      const vector = VECTOR_TYPES[p.type];
      if (p.positional) i = recordArgument(fn, p.type, args, i, out);
      else if (vector && typeof args[i] === 'object') out.push(...vectorArgument(fn, p.name, vector, args[i++]));
      else if (vector) for (let k = 0; k < vector.width && i < args.length; k++) out.push(args[i++]);
      else out.push(p.type ? checkOptions(fn, p.type, args[i++]) : args[i++]);
    }
    while (i < args.length) out.push(args[i++]);   // extra arguments: the binding says how many it expects
    if (out.length < arity && out.length >= arity - optional) while (out.length < arity) out.push(undefined);
    return binding.apply(this, out);
  };
}

/**
 * A record parameter (api-shapes.js `...name: Type`) at args[i], given as one object or as its members' values in
 * order: pushes the values onto `out` (defaults for members left out of an object); returns the next argument's index.
 */
function recordArgument(fn, type, args, i, out) {
  const keys = optionMembers(type).map((m) => m.name);
  const value = args[i];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = checkOptions(fn, type, value);
    out.push(...keys.map((key) => record[key] ?? POSITIONAL_DEFAULTS[type][key]));
    return i + 1;
  }
  const end = Math.min(args.length, i + keys.length);
  out.push(...args.slice(i, end));
  return end;
}

function vectorArgument(fn, name, vector, value) {
  const components = vectorComponents(value, vector.width);
  if (!components) {
    throw new InvalidArgumentError(`${fn}: ${name} must be ${vector.width} numbers, ${vector.forms}`);
  }
  return components;
}
