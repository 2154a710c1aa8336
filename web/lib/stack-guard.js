// Restores the wasm stack pointer when a call into the module throws.
//
// A C++ error reaches JS as an Error thrown by Embind's val::throw_() from inside the wasm call. The exception unwinds
// the wasm frames without running their epilogues, so the C stack pointer stays where the deepest frame left it:
// every failing call leaked its frames' stack space (80 B for a failing world.step, 16 B for readObj; measured), and
// after about 13,000 failing calls the 1 MB stack ran into static data and corrupted the module (seen: an Error with
// an empty message after 8,127 cycles of three failing calls). Wrapping each entry point in stackSave/stackRestore
// puts the pointer back, whatever threw (C++ validation, a JS callback such as onProgress, an abort signal).
// Being the one wrapper every entry point goes through, it also hands what was thrown to `onError(error, name)`
// (the entry point's name), whose result is thrown instead: index.js gives errors their types there (errors.js).

const unchanged = (error) => error;

/** fn with the stack pointer restored if it throws, and the error passed through onError. */
export function guardStack(M, fn, onError = unchanged) {
  return function guarded(...args) {
    const sp = M.stackSave();
    try {
      return fn.apply(this, args);
    } catch (error) {
      M.stackRestore(sp);
      throw onError(error);
    }
  };
}

/** Wraps every method of an Embind class in place, and returns a constructor that is guarded too. */
function guardClass(M, Class, onError) {
  const proto = Class.prototype;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (name === 'constructor' || typeof descriptor.value !== 'function') continue;
    proto[name] = guardStack(M, descriptor.value, (error) => onError(error, name));
  }
  const construct = guardStack(M, (...args) => new Class(...args), (error) => onError(error, Class.name));
  // Called with `new`, a function that returns an object yields that object: instances stay `instanceof Class`.
  function Guarded(...args) { return construct(...args); }
  Guarded.prototype = proto;
  Object.defineProperty(Guarded, 'name', { value: Class.name });
  for (const name of Object.keys(Class)) {   // class_function statics
    Guarded[name] = typeof Class[name] === 'function'
      ? guardStack(M, Class[name], (error) => onError(error, name)) : Class[name];
  }
  return Guarded;
}

const isEmbindFunction = (v) => typeof v === 'function' && ('argCount' in v || 'overloadTable' in v);
const isEmbindClass = (v) => typeof v === 'function' && typeof v.prototype?.isDeleted === 'function';

/** Guards, in place, every free function and class the module's Embind bindings registered on it. */
export function guardModule(M, onError = unchanged) {
  for (const name of Object.keys(M)) {
    if (isEmbindClass(M[name])) M[name] = guardClass(M, M[name], onError);
    else if (isEmbindFunction(M[name])) M[name] = guardStack(M, M[name], (error) => onError(error, name));
  }
  return M;
}
