// Typed errors, so that a caller can tell bad input, a bad mesh file and a bad snapshot apart with `instanceof`.
// They mirror the C++ classes in pbd/errors.h: a mesh parse error and a snapshot error are invalid arguments too.
// The bindings throw plain Errors carrying the C++ message; typedError() gives each its class by where it came from
// (the entry point that threw it) and keeps the message.
import { nearestName } from './nearest-name.js';

/** Base class of every error the package throws for bad input or a failed request. */
export class PbdError extends Error {}

/** An argument or option the call rejects; the world is unchanged. */
export class InvalidArgumentError extends PbdError {}

/** A rejected value as a message quotes it: strings in quotes, anything else as String() writes it. */
export const describeValue = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** Malformed mesh text (readObj, readTetGen). */
export class MeshParseError extends InvalidArgumentError {
  /** @param {string} message @param {number} [line] 1-based; 0 when the error concerns the whole text. */
  constructor(message, line = lineOf(message)) {
    super(message);
    this.line = line;
  }
}

/** A blob loadSnapshot cannot load (not bytes, corrupt, truncated, from a newer version); the world is unchanged. */
export class SnapshotError extends InvalidArgumentError {}

// On the prototypes, not from the class names: a minifier may rename classes.
for (const [Class, name] of [[PbdError, 'PbdError'], [InvalidArgumentError, 'InvalidArgumentError'],
  [MeshParseError, 'MeshParseError'], [SnapshotError, 'SnapshotError']]) {
  Object.defineProperty(Class.prototype, 'name', { value: name, writable: true, configurable: true });
}

/** "readObj: line 4: ..." and "readTetGen: .ele line 2: ..." name their line; other parse errors name none (0). */
function lineOf(message) {
  const match = /\bline (\d+):/.exec(message);
  return match ? Number(match[1]) : 0;
}

const MESH_READERS = new Set(['readObj', 'readTetGen']);
const foreignErrors = new WeakSet();

/** Marks an error thrown by the caller's own code (a progress callback) so that it reaches the caller untouched. */
export function passThrough(error) {
  if (error !== null && (typeof error === 'object' || typeof error === 'function')) foreignErrors.add(error);
  return error;
}

/**
 * What a call into the bindings should throw, given what it threw and the entry point's name (`where`: a World
 * method or a module function). The C++ side throws plain Errors; Embind its BindingError (wrong argument count, a
 * deleted object). Anything else (an AbortError, the caller's own error, a wasm trap) passes unchanged.
 */
export function typedError(error, where) {
  if (!(error instanceof Error) || error instanceof PbdError || foreignErrors.has(error)) return error;
  if (error.name === 'BindingError') return new InvalidArgumentError(error.message);
  if (error.name !== 'Error') return error;
  const { message } = error;
  if (/: out of memory\b/.test(message)) return new PbdError(message);   // bad_alloc: the input was fine
  if (MESH_READERS.has(where)) return new MeshParseError(message);
  if (where === 'loadSnapshot') return new SnapshotError(message);
  return new InvalidArgumentError(withEnumHint(message));
}

// The C++ side's message for a string that is none of an enum's names (wasm_values.h enumValue):
// "<function>: <key> must be 'a', 'b' or 'c' (got 'x')".
const ENUM_MESSAGE = /^(.* must be ('[^']*'(?:(?:, | or )'[^']*')*) \(got '([^']*)')\)$/;

/** An enum message with the nearest valid name added: "... (got 'xbpd'; did you mean 'xpbd'?)". */
export function withEnumHint(message) {
  const match = ENUM_MESSAGE.exec(message);
  if (!match) return message;
  const names = [...match[2].matchAll(/'([^']*)'/g)].map((m) => m[1]);
  const guess = nearestName(match[3], names);
  return guess ? `${match[1]}; did you mean '${guess}'?)` : message;
}
