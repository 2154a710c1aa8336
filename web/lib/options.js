// Options objects checked against their type's keys (api-shapes.js) before they reach the bindings, which read the
// keys they know and would ignore any other: a misspelt key is an error that names it and the nearest valid one, and
// the world is unchanged. Vectors in any shape become the arrays the bindings read. Values are the bindings' to check.
import { OPTION_TYPES, parseMember } from './api-shapes.js';
import { InvalidArgumentError } from './errors.js';
import { nearestName } from './nearest-name.js';
import { VECTOR_TYPES, isArrayLike, vectorComponents } from './vec3.js';

const membersByType = new Map();

/** Type's members by key, `...Other` spread in. */
function membersOf(type) {
  let members = membersByType.get(type);
  if (members) return members;
  members = new Map();
  for (const member of OPTION_TYPES[type].map(parseMember)) {
    if (member.spread) for (const [key, m] of membersOf(member.spread)) members.set(key, m);
    else members.set(member.name, member);
  }
  membersByType.set(type, members);
  return members;
}

/** An options type's members, parsed (api-shapes.js parseMember), its spreads included. */
export const optionMembers = (type) => [...membersOf(type).values()];

/** The error for option `key` of call `fn` that is none of `keys`: it names the key and the nearest valid one. */
export function unknownOption(fn, path, key, keys) {
  const guess = nearestName(key, keys);
  const hint = guess ? `did you mean '${guess}'?` : `valid: ${keys.join(', ')}`;
  return new InvalidArgumentError(`${fn}: unknown option '${path}${key}' (${hint})`);
}

/**
 * `value` checked against options type `type` for call `fn`: the same object, or a copy with its vectors as arrays.
 * A value that is not an object is returned as it is, for the bindings to reject with their own message.
 * @param {string} path where `value` sits in the call's options ('pinRegions[0].'), for messages.
 */
export function checkOptions(fn, type, value, path = '') {
  if (value === null || typeof value !== 'object' || isArrayLike(value)) return value;
  const members = membersOf(type);
  let out = value;
  for (const key of Object.keys(value)) {
    const member = members.get(key);
    if (!member) throw unknownOption(fn, path, key, [...members.keys()]);
    const converted = member.type ? checkField(fn, member, value[key], path + key) : value[key];
    if (converted === value[key]) continue;
    if (out === value) out = { ...value };
    out[key] = converted;
  }
  return out;
}

function checkField(fn, member, value, path) {
  if (!member.array) return checkValue(fn, member.type, value, path);
  if (!Array.isArray(value)) return value;
  const items = value.map((item, k) => checkValue(fn, member.type, item, `${path}[${k}]`));
  return items.every((item, k) => item === value[k]) ? value : items;
}

function checkValue(fn, type, value, path) {
  const vector = VECTOR_TYPES[type];
  if (!vector) return checkOptions(fn, type, value, `${path}.`);
  // Arrays and non-objects go through as they are: the bindings check their length and numbers by name.
  if (isArrayLike(value) || (value !== null && typeof value !== 'object')) return value;
  const components = vectorComponents(value, vector.width);
  if (!components) throw new InvalidArgumentError(`${fn}: ${path} must be ${vector.forms}`);
  return components;
}
