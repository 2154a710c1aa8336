// Errors across the Worker boundary (worker.js, worker-host.js): structured cloning keeps an Error's message but
// not its class, so the Worker sends the class's name and the page throws that class again (errors.js).
import { InvalidArgumentError, MeshParseError, PbdError, SnapshotError } from './errors.js';

const CLASSES = { PbdError, InvalidArgumentError, MeshParseError, SnapshotError };

/** What the Worker sends for `error`. */
export function describeError(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  return { name: error.name, message: error.message, line: error.line };
}

/** The error the page throws for a description from describeError. */
export function reviveError({ name, message, line }) {
  if (name === 'MeshParseError') return new MeshParseError(message, line);
  if (CLASSES[name]) return new CLASSES[name](message);
  const error = new (globalThis[name]?.prototype instanceof Error ? globalThis[name] : Error)(message);
  if (error.name !== name) error.name = name;   // e.g. AbortError, which has no global class
  return error;
}
